/**
 * Off-heap counter plumbing shared by every MDHub module: {@link io.mdhub.common.status.MdCounters} is the one
 * registry of MDHub counter type ids; a metrics bridge exports every counter of a {@code CountersReader} by type id
 * and label.
 */
package io.mdhub.common.status;
