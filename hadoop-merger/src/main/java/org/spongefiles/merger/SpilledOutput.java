package org.spongefiles.merger;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.SpongeFile;

/**
 * A map output too large for the shuffle memory, streamed as fetched (still compressed, its IFile
 * checksum verified on the way) into a SpongeFile, whatever its size: nothing of it stays on the
 * heap but one copy buffer.
 */
final class SpilledOutput<K, V> extends FetchedOutput<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(SpilledOutput.class);
  private static final int COPY_BUFFER = 64 << 10;

  private final SpongeMergeManager<K, V> merger;
  private final Spills<K, V> spills;
  private final SpongeFile file;

  SpilledOutput(
      TaskAttemptID mapId,
      long size,
      SpongeMergeManager<K, V> merger,
      Spills<K, V> spills,
      Configuration conf) {
    super(mapId, size, true, conf);
    this.merger = merger;
    this.spills = spills;
    this.file = spills.create("map-output-" + mapId.getTaskID().getId());
  }

  @Override
  void receive(Fetch fetch) throws IOException {
    long left = fetch.compressedLength;
    try (OutputStream out = spills.output(file)) {
      byte[] buffer = new byte[COPY_BUFFER];
      while (left > 0) {
        int n = fetch.in.readWithChecksum(buffer, 0, (int) Math.min(left, buffer.length));
        if (n < 0) {
          throw fetch.wrongLength(
              "ended with " + left + " of " + fetch.compressedLength + " bytes missing");
        }
        out.write(buffer, 0, n);
        left -= n;
        fetch.received(n);
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
