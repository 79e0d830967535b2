/**
 * Real ETA 3.9.1.0 applications for tests, built only from ETA's own transport, codec and valueadd RDM helpers so
 * they check MDHub independently of its RWF code: {@link io.mdhub.common.test.eta.EtaChannel} (one transport
 * channel), {@link io.mdhub.common.test.eta.EtaConsumer} (login, directory, dictionary download, streaming, snapshot
 * and batch item requests, closes), {@link io.mdhub.common.test.eta.EtaNiProvider} (a non-interactive provider) and
 * {@link io.mdhub.common.test.eta.EtaMessage} (a received message, its fields decoded with the types of a data
 * dictionary). Field lists to publish are built with {@code io.mdhub.common.cache.EtaFieldLists} (ETA's encoder).
 * Tests using them need {@code @ExtendWith(EtaTransportExtension.class)} and an {@code @InterruptAfter} deadline.
 */
package io.mdhub.common.test.eta;
