package org.spongefiles.merger;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.IFileInputStream;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.SpongeFile;

/**
 * A map output too large for the shuffle memory, streamed as fetched (still compressed, its IFile
 * checksum verified on the way) into a SpongeFile, whatever its size: nothing of it stays on the
 * heap but one copy buffer.
 */
final class SpilledOutput<K, V> extends MapOutput<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(SpilledOutput.class);
  private static final int COPY_BUFFER = 64 << 10;

  private final SpongeMergeManager<K, V> merger;
  private final Spills<K, V> spills;
  private final Configuration conf;
  private final SpongeFile file;

  SpilledOutput(
      TaskAttemptID mapId,
      long size,
      SpongeMergeManager<K, V> merger,
      Spills<K, V> spills,
      Configuration conf) {
    super(mapId, size, true);
    this.merger = merger;
    this.spills = spills;
    this.conf = conf;
    this.file = spills.create("map-output-" + mapId.getTaskID().getId());
  }

  @Override
  public void shuffle(
      MapHost host,
      InputStream input,
      long compressedLength,
      long decompressedLength,
      ShuffleClientMetrics metrics,
      Reporter reporter)
      throws IOException {
    IFileInputStream checked = new IFileInputStream(input, compressedLength, conf);
    long left = compressedLength;
    try (OutputStream out = spills.output(file)) {
      byte[] buffer = new byte[COPY_BUFFER];
      while (left > 0) {
        int n = checked.readWithChecksum(buffer, 0, (int) Math.min(left, buffer.length));
        if (n < 0) {
          throw new IOException(
              "Map output of "
                  + getMapId()
                  + " from "
                  + host.getHostName()
                  + " ended with "
                  + left
                  + " of "
                  + compressedLength
                  + " bytes missing");
        }
        out.write(buffer, 0, n);
        left -= n;
        metrics.inputBytes(n);
        reporter.progress();
      }
    } catch (IOException | RuntimeException e) {
      deleteQuietly();
      throw e;
    }
  }

  @Override
  public void commit() {
    merger.spilled(new SpilledSegment(file, getSize(), true));
  }

  @Override
  public void abort() {
    deleteQuietly();
  }

  private void deleteQuietly() {
    try {
      file.delete();
    } catch (IOException e) {
      LOG.warn("Could not delete {} of an aborted fetch of {}: {}", file, getMapId(), e.toString());
    }
  }

  @Override
  public String getDescription() {
    return "SPONGEFILE";
  }
}
