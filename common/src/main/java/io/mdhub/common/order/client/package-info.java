/**
 * Client side of the MDHub order protocol ({@code order-codecs.xml}): {@link io.mdhub.common.order.client.OrderClient}
 * says hello to every server of its active/active pairs, routes each order to its partition's primary, keeps every
 * unacknowledged order (an off-heap copy) and resends it on failover until it is acknowledged or finally rejected.
 */
package io.mdhub.common.order.client;
