/**
 * Agent threading helpers: idle strategies chosen by alias, the busy-spin thread budget, and a thread's timer slack.
 */
package io.mdhub.common.concurrent;
