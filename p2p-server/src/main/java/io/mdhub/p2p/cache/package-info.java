/**
 * The p2p-server's optional item cache: an {@link io.mdhub.p2p.cache.CachingItemSource} between a fan-out worker and
 * its item source keeps every streaming item's image off the Java heap and answers new watchers of an item from it,
 * so only the first watcher's request travels upstream.
 */
package io.mdhub.p2p.cache;
