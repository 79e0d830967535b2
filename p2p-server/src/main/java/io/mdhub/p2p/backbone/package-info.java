/**
 * The p2p-server's item source on the Aeron backbone: item interest out on the control stream, images, updates and
 * statuses in on the data stream, loss detection and recovery, the service directory from distributor announcements.
 */
package io.mdhub.p2p.backbone;
