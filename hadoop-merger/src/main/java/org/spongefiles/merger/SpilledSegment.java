package org.spongefiles.merger;

import org.spongefiles.core.SpongeFile;

/**
 * One IFile (checksummed, compressed with the job's map-output codec, encrypted when the job
 * encrypts intermediate data) held in a closed SpongeFile: a map output streamed there during the
 * shuffle ({@code primary}), or the result of a merge.
 */
final class SpilledSegment {
  private final SpongeFile file;
  private final long rawLength;
  private final boolean primary;

  SpilledSegment(SpongeFile file, long rawLength, boolean primary) {
    this.file = file;
    this.rawLength = rawLength;
    this.primary = primary;
  }

  SpongeFile file() {
    return file;
  }

  /** Bytes stored, the length of the SpongeFile. */
  long length() {
    return file.length();
  }

  /** Bytes of the IFile once decrypted and decompressed. */
  long rawLength() {
    return rawLength;
  }

  /** Whether this is one map's output as fetched, counted once in MERGED_MAP_OUTPUTS. */
  boolean primary() {
    return primary;
  }

  @Override
  public String toString() {
    return file + " (" + length() + " bytes)";
  }
}
