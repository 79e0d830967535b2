/**
 * Real EMA 3.9.1.0 applications for tests, configured programmatically with EMA's defaults except for where to
 * connect, so they exercise MDHub's servers as unchanged LSEG applications would:
 * {@link io.mdhub.common.test.ema.EmaTestConsumer} (an OmmConsumer with its own login, directory, downloaded
 * dictionary, watchlist and dispatch thread, queueing each item's messages by handle),
 * {@link io.mdhub.common.test.ema.EmaTestNiProvider} (a non-interactive OmmProvider with a one-service directory) and
 * {@link io.mdhub.common.test.ema.EmaMessage} (a message copied out of EMA's callback, its fields decoded with EMA's
 * load types). Users need {@code com.refinitiv.ema:ema} on their test classpath and an {@code @InterruptAfter}
 * deadline; every wait also has its own timeout.
 */
package io.mdhub.common.test.ema;
