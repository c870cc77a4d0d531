package org.spongefiles.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;

/**
 * A test certificate authority made with the JDK's {@code keytool}, as an operator makes one: a CA
 * key pair, a PKCS12 truststore holding its certificate, and per-node PKCS12 keystores whose
 * certificates it signed for 127.0.0.1 and localhost. Every store has the password in {@link
 * #passwordFile()}. EC P-256 keys.
 *
 * <p>Each keytool run is a JVM start (about 0.7 s here, five per keystore), so the files a JVM made
 * are kept for its lifetime and copied to the next caller: an authority of a name made before is
 * the same CA, and a node's first keystore from it is the one made before. A second {@link
 * #keystore} of the same node from one authority is a new key pair, as a rotation needs.
 */
public final class TestCertificates {
  private static final String PASSWORD = "test-password";

  /** This JVM's copies of what it made: file name to file, in one directory. */
  private static final Map<String, Path> MADE = new HashMap<>();

  private static Path madeDir;

  private final Path dir;
  private final String name;
  private final Path caStore;
  private final Path caCertificate;
  private final Path truststore;
  private final Path passwordFile;
  private final Set<String> issued = new HashSet<>();

  private TestCertificates(Path dir, String name) {
    this.dir = dir;
    this.name = name;
    this.caStore = dir.resolve(name + "-ca.p12");
    this.caCertificate = dir.resolve(name + "-ca.pem");
    this.truststore = dir.resolve(name + "-truststore.p12");
    this.passwordFile = dir.resolve(name + "-password");
  }

  /** A CA named {@code name} with its files in {@code dir} (this JVM's CA of that name). */
  public static TestCertificates authority(Path dir, String name) throws IOException {
    TestCertificates ca = new TestCertificates(dir, name);
    synchronized (MADE) {
      if (MADE.containsKey(ca.caStore.getFileName().toString())) {
        for (Path file : List.of(ca.caStore, ca.caCertificate, ca.truststore, ca.passwordFile)) {
          copyMade(file);
        }
        return ca;
      }
    }
    Files.writeString(ca.passwordFile, PASSWORD + "\n", StandardCharsets.UTF_8);
    ca.keytool(
        "-genkeypair",
        "-alias",
        "ca",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=" + name,
        "-ext",
        "bc:c",
        "-validity",
        "2",
        "-keystore",
        ca.caStore.toString());
    ca.keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        "ca",
        "-keystore",
        ca.caStore.toString(),
        "-file",
        ca.caCertificate.toString());
    ca.keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "cluster-ca",
        "-file",
        ca.caCertificate.toString(),
        "-keystore",
        ca.truststore.toString());
    synchronized (MADE) {
      for (Path file : List.of(ca.caStore, ca.caCertificate, ca.truststore, ca.passwordFile)) {
        keep(file);
      }
    }
    return ca;
  }

  /** Copies this JVM's file of {@code target}'s name to {@code target}. */
  private static void copyMade(Path target) throws IOException {
    Files.copy(
        MADE.get(target.getFileName().toString()),
        target,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  /** Keeps a copy of {@code file} for this JVM's later callers. */
  private static void keep(Path file) throws IOException {
    if (madeDir == null) {
      madeDir = Files.createTempDirectory("test-certificates");
      Path dir = madeDir;
      Runtime.getRuntime()
          .addShutdownHook(new Thread(() -> TestDirs.deleteTree(dir), "test-certificates"));
    }
    Path copy = madeDir.resolve(file.getFileName());
    Files.copy(file, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    MADE.put(file.getFileName().toString(), copy);
  }

  /** The PKCS12 truststore holding this CA's certificate. */
  public Path truststore() {
    return truststore;
  }

  /** The file holding every store's password. */
  public Path passwordFile() {
    return passwordFile;
  }

  /**
   * A new PKCS12 keystore {@code <node>.p12} (replacing one of that name) with a key pair whose
   * certificate this CA signed for 127.0.0.1 and localhost, followed by the CA's certificate.
   */
  public Path keystore(String node) throws IOException {
    Path store = dir.resolve(name + "-" + node + ".p12");
    synchronized (MADE) {
      if (issued.add(node) && MADE.containsKey(store.getFileName().toString())) {
        copyMade(store);
        return store;
      }
    }
    Path request = dir.resolve(name + "-" + node + ".csr");
    Path signed = dir.resolve(name + "-" + node + ".pem");
    Path fresh = dir.resolve(name + "-" + node + ".p12.new");
    Files.deleteIfExists(fresh);
    keytool(
        "-genkeypair",
        "-alias",
        "node",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=" + node,
        "-validity",
        "2",
        "-keystore",
        fresh.toString());
    keytool(
        "-certreq", "-alias", "node", "-keystore", fresh.toString(), "-file", request.toString());
    keytool(
        "-gencert",
        "-rfc",
        "-alias",
        "ca",
        "-keystore",
        caStore.toString(),
        "-infile",
        request.toString(),
        "-outfile",
        signed.toString(),
        "-validity",
        "2",
        "-ext",
        "SAN=ip:127.0.0.1,dns:localhost");
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "cluster-ca",
        "-file",
        caCertificate.toString(),
        "-keystore",
        fresh.toString());
    keytool(
        "-importcert", "-alias", "node", "-file", signed.toString(), "-keystore", fresh.toString());
    Files.move(
        fresh,
        store,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    synchronized (MADE) {
      if (!MADE.containsKey(store.getFileName().toString())) {
        keep(store);
      }
    }
    return store;
  }

  /** Sets TLS on in {@code conf} with this CA's truststore (a task's or tool's view). */
  public Configuration client(Configuration conf) {
    conf.setBoolean("sponge.tls.enabled", true);
    conf.set("sponge.tls.truststore.file", truststore.toString());
    conf.set("sponge.tls.truststore.password.file", passwordFile.toString());
    return conf;
  }

  /** Sets TLS on in {@code conf} with {@code keystore} and this CA's truststore (a daemon's). */
  public Configuration daemon(Configuration conf, Path keystore) {
    client(conf);
    conf.set("sponge.tls.keystore.file", keystore.toString());
    conf.set("sponge.tls.keystore.password.file", passwordFile.toString());
    return conf;
  }

  private void keytool(String... arguments) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(arguments));
    command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException("keytool " + arguments[0] + " did not finish within 60 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while keytool " + arguments[0] + " ran", e);
    }
    if (process.exitValue() != 0) {
      throw new IOException("keytool " + String.join(" ", arguments) + " failed: " + output);
    }
  }
}
