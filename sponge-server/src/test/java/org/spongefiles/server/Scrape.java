package org.spongefiles.server;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/** Reads a server's metrics and health endpoints over HTTP. */
final class Scrape {
  private Scrape() {}

  static String get(int port, String path) throws IOException {
    HttpURLConnection connection =
        (HttpURLConnection) new URL("http://127.0.0.1:" + port + path).openConnection();
    connection.setConnectTimeout(5000);
    connection.setReadTimeout(5000);
    try (InputStream in = connection.getInputStream()) {
      return connection.getResponseCode()
          + "\n"
          + new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      connection.disconnect();
    }
  }

  /** The value of the first sample line starting with {@code prefix} (name and labels). */
  static double value(String metrics, String prefix) {
    for (String line : metrics.split("\n")) {
      if (line.startsWith(prefix)) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    throw new AssertionError("no metric " + prefix + " in:\n" + metrics);
  }
}
