/**
 * The backbone protocol over Aeron: publishers that encode the SBE messages of
 * {@code common/src/main/resources/sbe/backbone-codecs.xml} with bounded retries, adapters that decode them and call
 * listeners with primitives, and per-service sequence tracking for loss detection.
 */
package io.mdhub.backbone.protocol;
