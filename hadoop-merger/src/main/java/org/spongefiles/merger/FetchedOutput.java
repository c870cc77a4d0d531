package org.spongefiles.merger;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.IFileInputStream;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;

/**
 * What the in-memory and the SpongeFile map outputs share: a fetched map output is read through an
 * {@link IFileInputStream}, which verifies its IFile checksum, as one {@link Fetch}.
 */
abstract class FetchedOutput<K, V> extends MapOutput<K, V> {
  private final Configuration conf;

  FetchedOutput(TaskAttemptID mapId, long size, boolean primary, Configuration conf) {
    super(mapId, size, primary);
    this.conf = conf;
  }

  @Override
  public final void shuffle(
      MapHost host,
      InputStream input,
      long compressedLength,
      long decompressedLength,
      ShuffleClientMetrics metrics,
      Reporter reporter)
      throws IOException {
    IFileInputStream checked = new IFileInputStream(input, compressedLength, conf);
    receive(new Fetch(checked, compressedLength, host, metrics, reporter));
  }

  /** Reads the whole fetched output. */
  abstract void receive(Fetch fetch) throws IOException;

  /** One fetch of this map output: its checked stream, and where its progress is counted. */
  final class Fetch {
    final IFileInputStream in;
    final long compressedLength;
    private final MapHost host;
    private final ShuffleClientMetrics metrics;
    private final Reporter reporter;

    private Fetch(
        IFileInputStream in,
        long compressedLength,
        MapHost host,
        ShuffleClientMetrics metrics,
        Reporter reporter) {
      this.in = in;
      this.compressedLength = compressedLength;
      this.host = host;
      this.metrics = metrics;
      this.reporter = reporter;
    }

    /** Counts {@code bytes} more received and tells the task it progresses. */
    void received(long bytes) {
      metrics.inputBytes(bytes);
      reporter.progress();
    }

    /** A fetch that is not as long as announced; {@code how} says how. */
    IOException wrongLength(String how) {
      return new IOException(
          "Map output of " + getMapId() + " from " + host.getHostName() + " " + how);
    }
  }
}
