/**
 * Buffers and checksums shared by the streams: write-behind buffers, read windows, CRC32C per
 * checksum block; and the JVM's token, which lease ids carry ({@link
 * org.spongefiles.core.io.JvmToken}).
 *
 * <p>Must not import any other package of SpongeFiles.
 */
package org.spongefiles.core.io;
