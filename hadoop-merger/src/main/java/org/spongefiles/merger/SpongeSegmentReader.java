package org.spongefiles.merger;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.spongefiles.core.SpongeFile;

/**
 * Hadoop's IFile reader over a SpongeFile that deletes the file once the merge has read it: a merge
 * reads each segment once, and freeing its chunks at once leaves the pool to the merge's output.
 */
final class SpongeSegmentReader<K, V> extends IFile.Reader<K, V> {
  private final SpongeFile file;

  SpongeSegmentReader(
      Configuration conf,
      FSDataInputStream in,
      long length,
      CompressionCodec codec,
      Counters.Counter recordsRead,
      SpongeFile file)
      throws IOException {
    super(conf, in, length, codec, recordsRead);
    this.file = file;
  }

  @Override
  public void close() throws IOException {
    try {
      super.close();
    } finally {
      file.delete();
    }
  }
}
