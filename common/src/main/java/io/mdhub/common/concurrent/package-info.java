/**
 * Agent threading helpers: idle strategies chosen by alias, and the busy-spin thread budget.
 */
package io.mdhub.common.concurrent;
