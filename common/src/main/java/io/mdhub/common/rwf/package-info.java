/**
 * RWF (the OMM message encoding of RSSL) on the hot path: allocation-free flyweights over Agrona buffers that read
 * only what routing and fan-out need (message class, domain, streamId, flags, msgKey, state, update type) and
 * rewrite the streamId in place. Full encoding and decoding goes through ETA's codec, see
 * {@link io.mdhub.common.rwf.eta}.
 */
package io.mdhub.common.rwf;
