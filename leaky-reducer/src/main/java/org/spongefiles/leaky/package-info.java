/**
 * The leaky-buffer hashtable: a reducer's per-key state kept in memory and leaked to SpongeFiles
 * when it outgrows its budget, with the layouts and codecs it stores values in.
 *
 * <p>Imports sponge-core only; must not import its sub-packages (the MapReduce glue builds on it).
 */
package org.spongefiles.leaky;
