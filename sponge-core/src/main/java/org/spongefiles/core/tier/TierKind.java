package org.spongefiles.core.tier;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The places a chunk can live, nearest first. */
public enum TierKind {
  /** The node's shared memory pool, mapped into the task's address space. */
  POOL,
  /** A sponge server's pool on another node of the rack (or this node), over the network. */
  REMOTE,
  /** A file on a local disk of the node. */
  DISK,
  /** A file in a Hadoop FileSystem such as HDFS: the last resort. */
  DFS;

  /** The name used in configuration ({@code pool}, {@code remote}, ...). */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Whether chunks of this tier leave the task's process memory space for storage it does not
   * control.
   */
  public boolean leavesNodeMemory() {
    return this != POOL;
  }

  public static TierKind fromLabel(String label) {
    return valueOf(label.trim().toUpperCase(Locale.ROOT));
  }

  public static List<String> names() {
    List<String> names = new ArrayList<>();
    for (TierKind kind : values()) {
      names.add(kind.label());
    }
    return names;
  }
}
