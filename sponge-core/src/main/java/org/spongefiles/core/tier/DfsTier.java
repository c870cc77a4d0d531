package org.spongefiles.core.tier;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * A Hadoop FileSystem directory (HDFS in production) as the last-resort tier. Each SpongeFile gets
 * one file under {@code <sponge.dfs.dir>/<task>/}, appended to through one open stream. The task's
 * directory is made {@code rwx------} before its first file: tasks of other users sharing {@code
 * sponge.dfs.dir} cannot list or read its files, whatever the umask would have let them.
 */
public final class DfsTier implements Tier {
  private static final FsPermission OWNER_ONLY = new FsPermission((short) 0700);

  private final FileSystem fs;
  private final Path taskDir;
  private boolean taskDirMade;
  private final long limit;
  private final Map<FileKey, DfsBackingFile> files = new ConcurrentHashMap<>();
  private final AtomicLong used = new AtomicLong();

  public DfsTier(Configuration conf, String dir, String task, long limit) throws IOException {
    Path base = new Path(dir);
    this.fs = base.getFileSystem(conf);
    this.taskDir = new Path(base, task);
    this.limit = limit;
  }

  @Override
  public TierKind kind() {
    return TierKind.DFS;
  }

  @Override
  public StoredChunk store(FileKey file, ByteBuffer data) throws IOException {
    int length = data.remaining();
    if (limit > 0 && used.get() + length > limit) {
      return null;
    }
    DfsBackingFile backing = openBackingFile(file);
    long offset = backing.append(data);
    used.addAndGet(length);
    return new DfsStoredChunk(backing, offset, length);
  }

  /**
   * The file's backing file, created by the first of its chunks; a file's chunks may be stored by
   * several I/O threads at once, and only one of them creates it.
   */
  private synchronized DfsBackingFile openBackingFile(FileKey file) throws IOException {
    DfsBackingFile backing = files.get(file);
    if (backing == null) {
      if (!taskDirMade) {
        fs.mkdirs(taskDir, OWNER_ONLY);
        taskDirMade = true;
      }
      backing = new DfsBackingFile(fs, new Path(taskDir, file.pathName() + ".sponge"));
      files.put(file, backing);
    }
    return backing;
  }

  @Override
  public void sealed(FileKey file) throws IOException {
    DfsBackingFile backing = files.get(file);
    if (backing != null) {
      backing.seal();
    }
  }

  @Override
  public void delete(FileKey file, List<StoredChunk> chunks) throws IOException {
    DfsBackingFile backing = files.remove(file);
    if (backing != null) {
      used.addAndGet(-backing.size());
      backing.delete();
    }
  }

  /** The backing file of {@code file}, or null (for tests and diagnostics). */
  public Path backingFile(FileKey file) {
    DfsBackingFile backing = files.get(file);
    return backing == null ? null : backing.path();
  }

  @Override
  public String remaining() {
    return limit > 0
        ? used.get() + " of the task's " + limit + " byte limit used in " + taskDir
        : "no limit in " + taskDir;
  }

  @Override
  public void close() throws IOException {
    for (FileKey file : List.copyOf(files.keySet())) {
      delete(file, List.of());
    }
    fs.delete(taskDir, true);
  }
}
