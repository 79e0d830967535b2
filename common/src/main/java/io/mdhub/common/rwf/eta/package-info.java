/**
 * Small helpers around ETA's codec for the messages MDHub encodes or decodes in full (admin domains, images, tools):
 * Login, Source Directory, Dictionary and MarketPrice. Each helper does one job and reuses its ETA objects, so the
 * steady state allocates nothing; all of them read from and write into caller-provided memory through
 * {@link io.mdhub.common.rwf.eta.EtaBufferView}. The hot routing path uses {@link io.mdhub.common.rwf} instead.
 */
package io.mdhub.common.rwf.eta;
