package org.spongefiles.tracker;

import java.io.IOException;
import java.time.Duration;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.FreeList;

/** Asks a tracker for a rack's free list, as a task would, on a fresh connection. */
final class TrackerClient {
  private TrackerClient() {}

  static FreeList freeList(String tracker, String rack) throws IOException {
    try (RemoteConnection connection =
        RemoteConnection.open(
            ServerAddress.parse(tracker),
            new ClientIdentity("", (int) ProcessHandle.current().pid(), 0, 1, "attempt_probe"),
            null,
            Duration.ofSeconds(1),
            Duration.ofSeconds(2))) {
      return connection.freeList(rack);
    }
  }
}
