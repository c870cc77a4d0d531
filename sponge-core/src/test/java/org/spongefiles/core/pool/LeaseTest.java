package org.spongefiles.core.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.testkit.ChildJvm;
import org.spongefiles.testkit.TestDirs;

/** Leases between real processes: held while the holder lives, ended by SIGKILL, swept after. */
@Timeout(120)
class LeaseTest {
  private Path dir;
  private Path stderr;
  private LeaseDirectory leases;

  @BeforeEach
  void setUp() throws Exception {
    dir = TestDirs.newShmDir("lease");
    stderr = Files.createTempFile("lease-child", ".err");
    leases = LeaseDirectory.beside(dir);
  }

  @AfterEach
  void tearDown() throws Exception {
    TestDirs.deleteTree(dir);
    Files.deleteIfExists(stderr);
  }

  @Test
  void anotherProcessesLeaseIsAliveUntilItIsKilledThenSwept() throws Exception {
    try (ChildJvm child = ChildJvm.start(LeaseChild.class, stderr, dir.toString())) {
      long id =
          Long.parseUnsignedLong(child.awaitLine("LEASE", 60, TimeUnit.SECONDS).substring(6), 16);
      Path file = leases.path().resolve(LeaseDirectory.fileName(id));
      assertThat(file).exists();
      for (int i = 0; i < 20; i++) {
        assertThat(leases.isAlive(id)).as("check %d of a live holder's lease", i).isTrue();
      }
      assertThat(leases.sweep()).as("a live lease is not swept").isZero();
      assertThat(file).exists();

      child.kill();
      assertThat(leases.isAlive(id)).as("the kernel dropped the dead holder's lock").isFalse();
      assertThat(file).as("the file of a killed holder stays until swept").exists();
      assertThat(leases.sweep()).isEqualTo(1);
      assertThat(file).doesNotExist();
      assertThat(leases.isAlive(id)).isFalse();
    }
  }

  @Test
  void checksFromTheHoldingJvmNeverEndItsLease() throws Exception {
    Lease mine = leases.acquire();
    try (ChildJvm child = ChildJvm.start(LeaseChild.class, stderr, dir.toString())) {
      child.awaitLine("LEASE", 60, TimeUnit.SECONDS);
      for (int i = 0; i < 20; i++) {
        assertThat(leases.isAlive(mine.id())).isTrue();
      }
      assertThat(leases.sweep()).isZero();
      child.sendLine("CHECK " + Long.toHexString(mine.id()));
      assertThat(child.awaitLine("ALIVE", 30, TimeUnit.SECONDS))
          .as("another process still finds this JVM's lease held after its own checks")
          .isEqualTo("ALIVE true");

      mine.close();
      mine.close();
      assertThat(mine.file()).doesNotExist();
      assertThat(leases.isAlive(mine.id())).isFalse();
      child.sendLine("CHECK " + Long.toHexString(mine.id()));
      assertThat(child.awaitLine("ALIVE", 30, TimeUnit.SECONDS)).isEqualTo("ALIVE false");
    } finally {
      mine.close();
    }
  }

  @Test
  void leaseFilesAreReadableByAllAndTheDirectoryIsSticky() throws Exception {
    try (Lease lease = leases.acquire()) {
      assertThat(lease.file().getParent()).isEqualTo(dir.resolve("sponge-leases"));
      assertThat(lease.file().getFileName().toString())
          .isEqualTo(String.format("%016x.lease", lease.id()));
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(lease.file())))
          .isEqualTo("rw-r--r--");
      assertThat((Integer) Files.getAttribute(leases.path(), "unix:mode") & 07777).isEqualTo(01777);
      try (Lease other = leases.acquire()) {
        assertThat(other.id()).isNotEqualTo(lease.id());
        assertThat(leases.isAlive(other.id())).isTrue();
      }
    }
    try (var files = Files.list(leases.path())) {
      assertThat(files).as("closed leases leave no file").isEmpty();
    }
  }
}
