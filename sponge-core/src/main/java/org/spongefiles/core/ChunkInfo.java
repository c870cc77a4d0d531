package org.spongefiles.core;

import org.spongefiles.core.tier.TierKind;

/** Where one chunk of a SpongeFile ended up, for reports and tests. */
public final class ChunkInfo {
  private final int index;
  private final TierKind tier;
  private final int length;
  private final boolean checksummed;
  private final String location;

  ChunkInfo(int index, TierKind tier, int length, boolean checksummed, String location) {
    this.index = index;
    this.tier = tier;
    this.length = length;
    this.checksummed = checksummed;
    this.location = location;
  }

  public int index() {
    return index;
  }

  public TierKind tier() {
    return tier;
  }

  public int length() {
    return length;
  }

  public boolean checksummed() {
    return checksummed;
  }

  /** The tier's description of where it is. */
  public String location() {
    return location;
  }

  @Override
  public String toString() {
    return "chunk " + index + ": " + length + " bytes, " + location;
  }
}
