/**
 * MDHub's own field dictionary (RDMFieldDictionary and enumtype.def format, shipped as resources) and the loader
 * that turns it, or user-supplied files, into an ETA {@code DataDictionary}.
 */
package io.mdhub.common.dictionary;
