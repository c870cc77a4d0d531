package org.spongefiles.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.RandomBytes;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/** The last-resort tier against a real HDFS (a one-datanode MiniDFSCluster). */
@Timeout(180)
class MiniDfsTierTest {
  private static MiniDFSCluster cluster;
  private static Path base;

  @BeforeAll
  static void startHdfs() throws Exception {
    base = TestDirs.newShmDir("minidfs");
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.resolve("hdfs").toString());
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    cluster.waitActive();
  }

  @AfterAll
  static void stopHdfs() {
    if (cluster != null) {
      cluster.shutdown();
    }
    TestDirs.deleteTree(base);
  }

  @Test
  void chunksSpillToHdfsAndComeBackVerified() throws Exception {
    Path poolDir = TestDirs.newShmDir("minidfs-pool");
    Path diskDir = TestDirs.newShmDir("minidfs-disk");
    int chunk = 1 << 20;
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, 2L * chunk, chunk);
    conf.set("fs.defaultFS", cluster.getFileSystem().getUri().toString());
    SpongeOptions.DISK_LIMIT.set(conf, (long) chunk);
    SpongeOptions.DFS_DIR.set(conf, cluster.getFileSystem().getUri() + "/spongefiles");
    FileSystem hdfs = cluster.getFileSystem();
    org.apache.hadoop.fs.Path taskDir = new org.apache.hadoop.fs.Path("/spongefiles/attempt_dfs_1");
    try (SpongeTask task = SpongeTask.open(conf, "attempt_dfs_1")) {
      SpongeFile file = task.create("to-hdfs");
      long size = 40L * chunk + 4321;
      byte[] written;
      try (OutputStream out = file.output()) {
        written = RandomBytes.write(out, 99, size);
      }
      assertThat(task.stats().bytesWritten(TierKind.POOL)).isEqualTo(2L * chunk);
      assertThat(task.stats().bytesWritten(TierKind.DISK)).isEqualTo(chunk);
      assertThat(task.stats().bytesWritten(TierKind.DFS)).isEqualTo(37L * chunk + 4321);
      assertThat(hdfs.listStatus(taskDir)).hasSize(1);
      assertThat(hdfs.listStatus(taskDir)[0].getLen()).isEqualTo(37L * chunk + 4321);
      for (int pass = 0; pass < 2; pass++) {
        try (SpongeInputStream in = file.input()) {
          assertThat(RandomBytes.read(in, pass).sha256).isEqualTo(written);
        }
      }
      file.delete();
      assertThat(hdfs.listStatus(taskDir)).isEmpty();
    } finally {
      TestDirs.deleteTree(poolDir);
      TestDirs.deleteTree(diskDir);
    }
    assertThat(hdfs.exists(taskDir)).as("the task's DFS directory goes with the task").isFalse();
  }

  /**
   * Another user sharing the tier's directory (mode 1777, as for several users) can neither list a
   * task's directory nor read its files, though its default umask would leave them readable.
   */
  @Test
  void anotherUserCannotReadATasksChunks() throws Exception {
    Path poolDir = TestDirs.newShmDir("minidfs-pool-users");
    Path diskDir = TestDirs.newShmDir("minidfs-disk-users");
    int chunk = 1 << 20;
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, chunk, chunk);
    conf.set("fs.defaultFS", cluster.getFileSystem().getUri().toString());
    SpongeOptions.DISK_LIMIT.set(conf, (long) chunk);
    SpongeOptions.DFS_DIR.set(conf, cluster.getFileSystem().getUri() + "/shared-sponge");
    FileSystem hdfs = cluster.getFileSystem();
    org.apache.hadoop.fs.Path shared = new org.apache.hadoop.fs.Path("/shared-sponge");
    hdfs.mkdirs(shared);
    hdfs.setPermission(shared, new FsPermission((short) 01777));
    org.apache.hadoop.fs.Path taskDir = new org.apache.hadoop.fs.Path(shared, "attempt_dfs_2");
    try (SpongeTask task = SpongeTask.open(conf, "attempt_dfs_2")) {
      SpongeFile file = task.create("private");
      try (OutputStream out = file.output()) {
        RandomBytes.write(out, 7, 8L * chunk);
      }
      assertThat(task.stats().bytesWritten(TierKind.DFS)).isPositive();
      assertThat(hdfs.getFileStatus(taskDir).getPermission()).hasToString("rwx------");
      org.apache.hadoop.fs.Path chunks = hdfs.listStatus(taskDir)[0].getPath();
      UserGroupInformation mallory = UserGroupInformation.createRemoteUser("mallory");
      try (FileSystem theirs =
          mallory.doAs(
              (PrivilegedExceptionAction<FileSystem>)
                  () -> FileSystem.newInstance(hdfs.getUri(), conf))) {
        assertThatThrownBy(() -> theirs.listStatus(taskDir))
            .isInstanceOf(AccessControlException.class)
            .hasMessageContaining("user=mallory");
        assertThatThrownBy(() -> theirs.open(chunks).read())
            .isInstanceOf(AccessControlException.class)
            .hasMessageContaining("user=mallory");
      }
      file.delete();
    } finally {
      TestDirs.deleteTree(poolDir);
      TestDirs.deleteTree(diskDir);
    }
  }
}
