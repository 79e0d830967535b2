/**
 * Off-heap item images: the current field values of cached items, updated field by field from RWF FieldLists and
 * written back as one FieldList for a refresh from cache. Single-writer: each image is owned by one thread.
 */
package io.mdhub.common.cache;
