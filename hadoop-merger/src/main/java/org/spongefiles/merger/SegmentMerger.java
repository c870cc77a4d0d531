package org.spongefiles.merger;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.Merger;
import org.apache.hadoop.mapred.Merger.Segment;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;
import org.apache.hadoop.util.Progressable;
import org.spongefiles.core.SpongeFile;

/**
 * Merges segments into one new SpongeFile in a single pass (Hadoop's {@link Merger} with a merge
 * factor equal to the number of segments, so it never writes an intermediate file of its own),
 * optionally through the job's combiner.
 */
final class SegmentMerger<K, V> {
  private final Spills<K, V> spills;
  private final FileSystem localFs;
  private final Path tmpDir;
  private final RawComparator<K> comparator;
  private final Progressable progress;

  SegmentMerger(
      Spills<K, V> spills,
      FileSystem localFs,
      Path tmpDir,
      RawComparator<K> comparator,
      Progressable progress) {
    this.spills = spills;
    this.localFs = localFs;
    this.tmpDir = tmpDir;
    this.comparator = comparator;
    this.progress = progress;
  }

  /**
   * Merges {@code segments} into a new SpongeFile named after {@code what}.
   *
   * @param combiner the job's combiner, or null to copy records as they are
   */
  SpilledSegment merge(String what, List<Segment<K, V>> segments, Combiner<K, V> combiner)
      throws IOException {
    SpongeFile file = spills.create(what);
    try {
      IFile.Writer<K, V> writer = spills.writer(file);
      RawKeyValueIterator merged = iterate(segments, null);
      if (combiner == null) {
        Merger.writeFile(merged, writer, progress, spills.conf());
      } else {
        combiner.combine(merged, writer);
      }
      writer.close();
      return new SpilledSegment(file, writer.getRawLength(), false);
    } catch (IOException | RuntimeException e) {
      file.delete();
      throw e;
    }
  }

  /**
   * Every segment merged in one round: Hadoop's merger with a factor of their number.
   *
   * @param phase the task's merge phase to advance, or null
   */
  RawKeyValueIterator iterate(List<Segment<K, V>> segments, Progress phase) throws IOException {
    return Merger.merge(
        spills.conf(),
        localFs,
        spills.keyClass(),
        spills.valueClass(),
        segments,
        Math.max(1, segments.size()),
        tmpDir,
        comparator,
        progress,
        null,
        null,
        phase);
  }
}
