package io.mdhub.common.ripc;

import java.math.BigInteger;
import java.security.SecureRandom;

/**
 * Client half of the TR_SL1_64 key exchange a RIPC14 server may offer in its ConnectAck (protocol facts §1.7): a
 * 64-bit Diffie-Hellman exchange over a prime P with generator G. The client picks a private key, answers with
 * {@code G^private mod P} and derives the shared key {@code serverPublic^private mod P}. All values are unsigned
 * 64-bit. The keys protect nothing on a plain socket (frames stay clear); the exchange exists because an ETA
 * server offers it and expects a well-formed answer.
 */
public final class RipcKeyExchange
{
    private static final BigInteger UNSIGNED_64_MASK = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private final long publicKey;
    private final long sharedKey;

    /**
     * @param prime        P, unsigned.
     * @param generator    G, unsigned.
     * @param serverPublic the server's public key, unsigned.
     * @param random       source of the private key.
     */
    public RipcKeyExchange(final long prime, final long generator, final long serverPublic, final SecureRandom random)
    {
        final BigInteger p = unsigned(prime);
        if (p.compareTo(BigInteger.TWO) <= 0)
        {
            throw new IllegalArgumentException("key exchange prime too small: " + p);
        }
        final BigInteger g = unsigned(generator);
        BigInteger privateKey;
        do
        {
            privateKey = new BigInteger(64, random).mod(p);
        }
        while (privateKey.signum() == 0);
        this.publicKey = g.modPow(privateKey, p).longValue();
        this.sharedKey = unsigned(serverPublic).modPow(privateKey, p).longValue();
    }

    /**
     * @return the client's public key {@code G^private mod P}, sent in the ClientKey.
     */
    public long publicKey()
    {
        return publicKey;
    }

    /**
     * @return the shared key {@code serverPublic^private mod P}.
     */
    public long sharedKey()
    {
        return sharedKey;
    }

    /**
     * @param value a uint64 held in a long.
     * @return its unsigned value.
     */
    public static BigInteger unsigned(final long value)
    {
        return BigInteger.valueOf(value).and(UNSIGNED_64_MASK);
    }
}
