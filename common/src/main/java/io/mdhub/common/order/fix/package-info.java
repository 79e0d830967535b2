/**
 * FIX tag=value orders for the order service: {@link io.mdhub.common.order.fix.FixOrderParser} reads and validates a
 * NewOrderSingle in one allocation-free pass into a reusable {@link io.mdhub.common.order.fix.FixOrder} (which can
 * write itself into an SBE OrderRecord), and {@link io.mdhub.common.order.fix.FixOrderEncoder} writes realistic
 * 305-byte NewOrderSingles for the load tools.
 */
package io.mdhub.common.order.fix;
