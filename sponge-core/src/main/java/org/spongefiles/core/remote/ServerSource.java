package org.spongefiles.core.remote;

import java.io.Closeable;
import java.util.List;

/**
 * Where a task's remote tier finds sponge servers with room: a static list from configuration, or
 * the memory tracker's rack-local free list.
 */
public interface ServerSource extends Closeable {

  /** Servers to try for a new chunk, in the order the source prefers. Never blocks for long. */
  List<ServerAddress> candidates();

  /** A chunk was stored on {@code server}: the source may count it against its view. */
  default void stored(ServerAddress server) {}

  /** A server declined a chunk for lack of room: the source's view of it is stale. */
  default void reportFull(ServerAddress server) {}

  /**
   * Whether {@code server} still has clear room by the source's view. A task prefers servers it
   * already uses only while they do, so it does not pile chunks on a nearly full node while others
   * are empty.
   */
  default boolean hasRoom(ServerAddress server) {
    return true;
  }

  @Override
  default void close() {}
}
