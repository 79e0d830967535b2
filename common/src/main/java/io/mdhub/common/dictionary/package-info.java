/**
 * MDHub's own field dictionary (RDMFieldDictionary and enumtype.def format, shipped as resources) and the loader
 * that turns it, or the files {@link io.mdhub.common.dictionary.DictionaryConfiguration} names (a full
 * RDMFieldDictionary and enumtype.def), into an ETA {@code DataDictionary}.
 */
package io.mdhub.common.dictionary;
