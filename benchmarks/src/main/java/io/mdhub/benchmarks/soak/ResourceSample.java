package io.mdhub.benchmarks.soak;

/**
 * What one process holds at one moment: resident memory, the heap in use right after a full collection, and its open
 * file descriptors (sockets included).
 *
 * @param rssBytes         resident set size.
 * @param heapAfterGcBytes heap used after a full collection, -1 when the JVM could not be asked.
 * @param fileDescriptors  open file descriptors.
 */
public record ResourceSample(long rssBytes, long heapAfterGcBytes, int fileDescriptors)
{
}
