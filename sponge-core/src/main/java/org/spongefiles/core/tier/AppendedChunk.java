package org.spongefiles.core.tier;

/**
 * A chunk that was appended to its SpongeFile's backing file (on a local disk or in a Hadoop
 * FileSystem): where it starts in that file, how long it is, and how it names itself in errors.
 * Reading stays with each tier, whose failures differ.
 */
abstract class AppendedChunk implements StoredChunk {
  private final TierKind tier;
  private final String label;
  private final Object path;
  private final long offset;
  private final int length;

  /** A chunk of {@code tier} at {@code offset} of the file at {@code path}, which errors name. */
  AppendedChunk(TierKind tier, String label, Object path, long offset, int length) {
    this.tier = tier;
    this.label = label;
    this.path = path;
    this.offset = offset;
    this.length = length;
  }

  long offset() {
    return offset;
  }

  @Override
  public TierKind tier() {
    return tier;
  }

  @Override
  public int length() {
    return length;
  }

  @Override
  public String describe() {
    return label + " chunk at byte " + offset + " of " + path;
  }
}
