/**
 * Buffers and checksums shared by the streams: write-behind buffers, read windows, CRC32C per
 * checksum block.
 *
 * <p>Must not import any other package of SpongeFiles.
 */
package org.spongefiles.core.io;
