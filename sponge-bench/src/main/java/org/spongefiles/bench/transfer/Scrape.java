package org.spongefiles.bench.transfer;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/** Reads a daemon's Prometheus metrics over HTTP. */
public final class Scrape {
  private Scrape() {}

  public static String metrics(int port) throws IOException {
    try (InputStream in = new URL("http://127.0.0.1:" + port + "/metrics").openStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The value of the first sample line starting with {@code prefix}; NaN when absent. */
  public static double value(String metrics, String prefix) {
    for (String line : metrics.split("\n")) {
      if (line.startsWith(prefix)) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return Double.NaN;
  }
}
