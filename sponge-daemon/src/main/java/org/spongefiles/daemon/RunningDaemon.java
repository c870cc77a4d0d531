package org.spongefiles.daemon;

import java.io.Closeable;
import java.net.InetSocketAddress;

/** A started daemon as its launcher sees it: where it answers, and how to stop it. */
public interface RunningDaemon extends Closeable {
  /** The endpoint it registers under (host:port). */
  String endpoint();

  /** The address it is bound to. */
  InetSocketAddress address();

  /** The port of its metrics endpoint, or -1 when it has none. */
  int metricsPort();

  /** Stops it; never throws. */
  @Override
  void close();
}
