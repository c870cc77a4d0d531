package org.spongefiles.core.tier;

/**
 * Where the tier chain counts the chunks it placed, one call per chunk. The task's statistics
 * implement it; the chain needs nothing else from them.
 */
public interface TierWrites {

  /** A chunk of {@code bytes} bytes was stored in {@code tier}. */
  void recordWrite(TierKind tier, long bytes);
}
