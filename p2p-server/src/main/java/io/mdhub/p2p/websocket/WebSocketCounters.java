package io.mdhub.p2p.websocket;

import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.slf4j.LoggerFactory;

import io.mdhub.common.log.LogSummary;
import io.mdhub.common.status.MdCounters;

/**
 * The WebSocket API's counters, shared by the connections of every worker.
 */
final class WebSocketCounters implements AutoCloseable
{
    private final AtomicCounter connections;
    private final AtomicCounter framesIn;
    private final AtomicCounter framesOut;
    private final AtomicCounter badMessages;
    private final AtomicCounter notConverted;
    private final AtomicCounter jsonConversions;
    private final AtomicCounter pingTimeouts;
    private final AtomicCounter fieldsLeftOut;
    private final LogSummary badMessageLog;
    private final LogSummary fieldsLeftOutLog;
    private final LogSummary notConvertedLog;

    WebSocketCounters(final CountersManager countersManager, final String component)
    {
        connections = countersManager.newCounter("p2p-websocket-connections:" + component,
            MdCounters.P2P_WEBSOCKET_CONNECTIONS_TYPE_ID);
        framesIn = countersManager.newCounter("p2p-websocket-frames-in:" + component,
            MdCounters.P2P_WEBSOCKET_FRAMES_IN_TYPE_ID);
        framesOut = countersManager.newCounter("p2p-websocket-frames-out:" + component,
            MdCounters.P2P_WEBSOCKET_FRAMES_OUT_TYPE_ID);
        badMessages = countersManager.newCounter("p2p-websocket-bad-messages:" + component,
            MdCounters.P2P_WEBSOCKET_BAD_MESSAGES_TYPE_ID);
        notConverted = countersManager.newCounter("p2p-websocket-not-converted:" + component,
            MdCounters.P2P_WEBSOCKET_NOT_CONVERTED_TYPE_ID);
        jsonConversions = countersManager.newCounter("p2p-websocket-json-conversions:" + component,
            MdCounters.P2P_WEBSOCKET_JSON_CONVERSIONS_TYPE_ID);
        pingTimeouts = countersManager.newCounter("p2p-websocket-ping-timeouts:" + component,
            MdCounters.P2P_WEBSOCKET_PING_TIMEOUTS_TYPE_ID);
        fieldsLeftOut = countersManager.newCounter("p2p-websocket-fields-left-out:" + component,
            MdCounters.P2P_WEBSOCKET_FIELDS_LEFT_OUT_TYPE_ID);
        fieldsLeftOutLog = new LogSummary(LoggerFactory.getLogger(JsonWebSocketAdapter.class), component,
            "fields left out of JSON messages", 1);
        notConvertedLog = new LogSummary(LoggerFactory.getLogger(JsonWebSocketAdapter.class), component,
            "messages not converted to JSON", 1);
        badMessageLog = new LogSummary(LoggerFactory.getLogger(JsonWebSocketAdapter.class), component,
            "refused WebSocket messages", 1);
    }

    void onConnected()
    {
        connections.increment();
    }

    void onFrameIn()
    {
        framesIn.increment();
    }

    void onFrameOut()
    {
        framesOut.increment();
    }

    void onBadMessage()
    {
        badMessages.increment();
    }

    boolean isBadMessageLogged(final String detail)
    {
        return badMessageLog.admit(0, "refused", true, detail);
    }

    /**
     * @param fields fields the dictionary lacks, left out of a converted message.
     * @param detail which.
     * @return whether the caller logs it (else it goes into the summary).
     */
    boolean onFieldsLeftOut(final long fields, final String detail)
    {
        fieldsLeftOut.getAndAdd(fields);
        return fieldsLeftOutLog.admit(0, "left out", true, detail);
    }

    /**
     * @param detail why the message did not convert.
     * @return whether the caller logs it (else it goes into the summary).
     */
    boolean onNotConverted(final String detail)
    {
        notConverted.increment();
        return notConvertedLog.admit(0, "not converted", true, detail);
    }

    void onPingTimeout()
    {
        pingTimeouts.increment();
    }

    void onJsonConversion()
    {
        jsonConversions.increment();
    }

    long badMessages()
    {
        return badMessages.get();
    }

    @Override
    public void close()
    {
        badMessageLog.flush();
        fieldsLeftOutLog.flush();
        notConvertedLog.flush();
        connections.close();
        framesIn.close();
        framesOut.close();
        badMessages.close();
        notConverted.close();
        jsonConversions.close();
        pingTimeouts.close();
        fieldsLeftOut.close();
    }
}
