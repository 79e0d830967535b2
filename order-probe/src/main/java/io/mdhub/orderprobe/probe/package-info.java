/**
 * The order probe, as the STAC Order Probe was built: a creation thread releases orders on a steady schedule whatever
 * the servers do, publishing threads submit them synchronously, and every order's create, send and end times are kept
 * for the analyser together with the pauses of the probe and of the servers.
 */
package io.mdhub.orderprobe.probe;
