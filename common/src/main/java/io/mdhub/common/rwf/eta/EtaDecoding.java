package io.mdhub.common.rwf.eta;

import com.refinitiv.eta.codec.CodecReturnCodes;

/**
 * Where ETA's decoders meet a peer's bytes. ETA answers most malformed input with a negative return code, but some
 * of it makes its decoders throw instead: a ClassCastException where a container's type byte names another
 * container than the one being decoded, an index or buffer exception where a length runs past the data. Each
 * decoder of this package catches that around its ETA calls and answers as for any other malformed message, so the
 * caller's one path for bad input (count, log, disconnect that peer) handles it too.
 */
final class EtaDecoding
{
    private EtaDecoding()
    {
    }

    /**
     * @return {@link CodecReturnCodes#FAILURE}, the answer to a malformed message (what ETA threw is the message's
     * fault and not kept).
     */
    static int malformed()
    {
        return CodecReturnCodes.FAILURE;
    }
}
