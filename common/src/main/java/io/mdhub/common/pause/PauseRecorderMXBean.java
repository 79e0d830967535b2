package io.mdhub.common.pause;

/**
 * The pause timeline of a running process over JMX ({@code io.mdhub:type=PauseRecorder,name=<process>}), read at
 * the end of a measurement by the order probe's analyser.
 */
public interface PauseRecorderMXBean
{
    /**
     * @return every pause recorded since the recorder started, oldest first, as {@link PauseEvent#toLine()} lines.
     * Reading parses the process's JFR recording: do it after a measurement, not during one.
     */
    String[] getPauses();

    /**
     * @return pauses recorded so far.
     */
    int getPauseCount();
}
