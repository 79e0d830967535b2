package io.mdhub.common.test;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.refinitiv.eta.transport.Error;
import com.refinitiv.eta.transport.InitArgs;
import com.refinitiv.eta.transport.Transport;
import com.refinitiv.eta.transport.TransportFactory;
import com.refinitiv.eta.transport.TransportReturnCodes;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Initialises ETA's transport for a test class (before its own {@code @BeforeAll} methods) and uninitialises it
 * after the class. ETA counts initialisations, so classes that run one after another each get a clean pairing.
 * Global locking is on: ETA's buffer pools are shared by every channel of the JVM, and some harnesses (the
 * {@code EtaInteractiveProvider}) drive their channels from their own thread while the test thread drives others.
 */
public final class EtaTransportExtension implements BeforeAllCallback, AfterAllCallback
{
    @Override
    public void beforeAll(final ExtensionContext context)
    {
        final InitArgs initArgs = TransportFactory.createInitArgs();
        initArgs.globalLocking(true);
        final Error error = TransportFactory.createError();
        assertEquals(TransportReturnCodes.SUCCESS, Transport.initialize(initArgs, error), error::text);
    }

    @Override
    public void afterAll(final ExtensionContext context)
    {
        Transport.uninitialize();
    }
}
