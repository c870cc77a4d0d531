package org.spongefiles.server.report;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One scrape of a Prometheus text endpoint ({@code /metrics}): the samples by name, each with its
 * labels. Only what {@code bin/sponge status} and the dashboard test need: names, labels, values.
 */
public final class MetricsScrape {
  /** One sample line. */
  public static final class Sample {
    public final String name;
    public final Map<String, String> labels;
    public final double value;

    Sample(String name, Map<String, String> labels, double value) {
      this.name = name;
      this.labels = labels;
      this.value = value;
    }
  }

  private final List<Sample> samples;

  private MetricsScrape(List<Sample> samples) {
    this.samples = samples;
  }

  /**
   * Fetches {@code http://host:port/metrics}.
   *
   * @throws IOException naming the URL when it does not answer with 200
   */
  public static MetricsScrape fetch(String host, int port, Duration timeout) throws IOException {
    URL url = new URL("http", host, port, "/metrics");
    HttpURLConnection connection = (HttpURLConnection) url.openConnection();
    connection.setConnectTimeout((int) timeout.toMillis());
    connection.setReadTimeout((int) timeout.toMillis());
    try {
      int status = connection.getResponseCode();
      if (status != 200) {
        throw new IOException(url + " answered HTTP " + status);
      }
      try (InputStream in = connection.getInputStream()) {
        return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new IOException("Cannot scrape " + url + ": " + e.getMessage(), e);
    } finally {
      connection.disconnect();
    }
  }

  /** Parses the Prometheus text format (comments skipped; timestamps ignored). */
  public static MetricsScrape parse(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int brace = line.indexOf('{');
      int space;
      String name;
      Map<String, String> labels = new LinkedHashMap<>();
      if (brace >= 0 && brace < line.indexOf(' ')) {
        name = line.substring(0, brace);
        int close = parseLabels(line, brace + 1, labels);
        space = close + 1;
      } else {
        space = line.indexOf(' ');
        name = line.substring(0, space);
      }
      String[] rest = line.substring(space).trim().split(" ");
      samples.add(new Sample(name, Collections.unmodifiableMap(labels), parseValue(rest[0])));
    }
    return new MetricsScrape(samples);
  }

  private static int parseLabels(String line, int at, Map<String, String> labels) {
    int i = at;
    while (line.charAt(i) != '}') {
      int eq = line.indexOf('=', i);
      String key = line.substring(i, eq).trim();
      StringBuilder value = new StringBuilder();
      int j = eq + 2;
      while (line.charAt(j) != '"') {
        char c = line.charAt(j);
        if (c == '\\') {
          j++;
          char escaped = line.charAt(j);
          value.append(escaped == 'n' ? '\n' : escaped);
        } else {
          value.append(c);
        }
        j++;
      }
      labels.put(key, value.toString());
      i = j + 1;
      if (line.charAt(i) == ',') {
        i++;
      }
    }
    return i;
  }

  private static double parseValue(String text) {
    switch (text) {
      case "+Inf":
        return Double.POSITIVE_INFINITY;
      case "-Inf":
        return Double.NEGATIVE_INFINITY;
      case "NaN":
        return Double.NaN;
      default:
        return Double.parseDouble(text);
    }
  }

  public List<Sample> samples() {
    return samples;
  }

  /** The samples of one metric name. */
  public List<Sample> samples(String name) {
    List<Sample> found = new ArrayList<>();
    for (Sample sample : samples) {
      if (sample.name.equals(name)) {
        found.add(sample);
      }
    }
    return found;
  }

  /** The value of an unlabelled (or single-sample) metric. */
  public double value(String name) throws IOException {
    List<Sample> found = samples(name);
    if (found.isEmpty()) {
      throw new IOException("no metric " + name + " in the scrape");
    }
    return found.get(0).value;
  }

  /** The value of the sample whose {@code label} is {@code labelValue}, 0 when absent. */
  public double value(String name, String label, String labelValue) {
    for (Sample sample : samples(name)) {
      if (labelValue.equals(sample.labels.get(label))) {
        return sample.value;
      }
    }
    return 0;
  }
}
