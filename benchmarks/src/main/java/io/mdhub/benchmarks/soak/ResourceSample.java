package io.mdhub.benchmarks.soak;

/**
 * What one process holds at one moment: resident memory (all of it, and its anonymous part: heap, direct buffers,
 * native allocations, without mapped files such as an order queue or Aeron's log buffers, which hold data), the heap
 * in use right after a full collection, and its open file descriptors (sockets included).
 *
 * @param rssBytes         resident set size.
 * @param anonRssBytes     resident anonymous memory.
 * @param heapAfterGcBytes heap used after a full collection, -1 when the JVM could not be asked.
 * @param fileDescriptors  open file descriptors.
 */
public record ResourceSample(long rssBytes, long anonRssBytes, long heapAfterGcBytes, int fileDescriptors)
{
}
