package org.spongefiles.core.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.config.ConfigOption;
import org.spongefiles.core.config.ConfigValues;

/**
 * The store files of {@code sponge.tls.*} and how to load them: PKCS12 stores whose passwords are
 * kept in files of their own. Every failure is a {@link ConfigException} naming the key and the
 * file.
 */
final class TlsStores {
  private final StoreFile keystore; // null for a client
  private final StoreFile truststore;

  private TlsStores(StoreFile keystore, StoreFile truststore) {
    this.keystore = keystore;
    this.truststore = truststore;
  }

  static TlsStores of(ConfigValues conf, boolean serves) {
    StoreFile trust =
        StoreFile.of(conf, TlsOptions.TRUSTSTORE_FILE, TlsOptions.TRUSTSTORE_PASSWORD_FILE);
    StoreFile keys =
        serves
            ? StoreFile.of(conf, TlsOptions.KEYSTORE_FILE, TlsOptions.KEYSTORE_PASSWORD_FILE)
            : null;
    return new TlsStores(keys, trust);
  }

  /** The files' modification times, sizes and identities, to notice a replaced one. */
  List<Object> stamp() {
    List<Object> stamp = new ArrayList<>();
    for (StoreFile store : stores()) {
      stamp.add(StoreFile.stat(store.path));
      stamp.add(StoreFile.stat(store.passwordPath));
    }
    return stamp;
  }

  boolean changedSince(Loaded loaded) {
    return !stamp().equals(loaded.stamp);
  }

  /** Loads the stores into a new context. */
  Loaded load() {
    List<Object> stamp = stamp();
    try {
      KeyManagerFactory keys = null;
      if (keystore != null) {
        char[] password = keystore.password();
        KeyStore store = keystore.open(password);
        if (!hasKey(store)) {
          throw new ConfigException(
              keystore.key.key(), keystore.path, "holds no private key and certificate");
        }
        keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        try {
          keys.init(store, password);
        } catch (UnrecoverableKeyException e) {
          throw new ConfigException(
              keystore.passwordKey.key(),
              keystore.passwordPath,
              "does not unlock the private key in " + keystore.path + " (" + e.getMessage() + ")");
        }
      }
      KeyStore trusted = truststore.open(truststore.password());
      if (trusted.size() == 0) {
        throw new ConfigException(
            truststore.key.key(), truststore.path, "holds no certificate (the cluster's CA)");
      }
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trusted);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
      return new Loaded(context, stamp, toString());
    } catch (GeneralSecurityException e) {
      throw new ConfigException(
          TlsOptions.ENABLED.key(), "true", "the JDK cannot set up TLS: " + e.getMessage());
    }
  }

  private static boolean hasKey(KeyStore store) throws GeneralSecurityException {
    for (String alias : Collections.list(store.aliases())) {
      if (store.isKeyEntry(alias) && store.getCertificate(alias) != null) {
        return true;
      }
    }
    return false;
  }

  private List<StoreFile> stores() {
    return keystore == null ? List.of(truststore) : List.of(keystore, truststore);
  }

  @Override
  public String toString() {
    return (keystore == null ? "" : "keystore " + keystore.path + ", ")
        + "truststore "
        + truststore.path;
  }

  /** A context and the stamp of the files it was loaded from. */
  static final class Loaded {
    final SSLContext context;
    final List<Object> stamp;
    private final String description;

    Loaded(SSLContext context, List<Object> stamp, String description) {
      this.context = context;
      this.stamp = stamp;
      this.description = description;
    }

    /** The same context, not to be loaded again until the files change from {@code stamp}. */
    Loaded retriedAt(List<Object> newStamp) {
      return new Loaded(context, newStamp, description);
    }

    @Override
    public String toString() {
      return description;
    }
  }

  /** One PKCS12 store and the file of its password. */
  private static final class StoreFile {
    final ConfigOption<String> key;
    final ConfigOption<String> passwordKey;
    final Path path;
    final Path passwordPath;

    private StoreFile(
        ConfigOption<String> key, ConfigOption<String> passwordKey, Path path, Path passwordPath) {
      this.key = key;
      this.passwordKey = passwordKey;
      this.path = path;
      this.passwordPath = passwordPath;
    }

    static StoreFile of(
        ConfigValues conf, ConfigOption<String> key, ConfigOption<String> passwordKey) {
      String file = conf.get(key);
      if (file.isEmpty()) {
        throw new ConfigException(
            key.key(), "(empty)", "required when " + TlsOptions.ENABLED.key() + "=true");
      }
      String passwordFile = conf.get(passwordKey);
      if (passwordFile.isEmpty()) {
        throw new ConfigException(
            passwordKey.key(), "(empty)", "required when " + key.key() + " is set");
      }
      return new StoreFile(key, passwordKey, Path.of(file), Path.of(passwordFile));
    }

    char[] password() {
      String text;
      try {
        text = new String(Files.readAllBytes(passwordPath), StandardCharsets.UTF_8).strip();
      } catch (IOException e) {
        throw new ConfigException(
            passwordKey.key(), passwordPath, "cannot be read (" + e.getMessage() + ")");
      }
      if (text.isEmpty()) {
        throw new ConfigException(passwordKey.key(), passwordPath, "is empty");
      }
      return text.toCharArray();
    }

    KeyStore open(char[] password) throws GeneralSecurityException {
      KeyStore store = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(path)) {
        store.load(in, password);
      } catch (IOException e) {
        if (e.getCause() instanceof UnrecoverableKeyException) {
          throw new ConfigException(
              passwordKey.key(), passwordPath, "is not the password of " + path);
        }
        throw new ConfigException(
            key.key(), path, "cannot be read as a PKCS12 store (" + e.getMessage() + ")");
      }
      return store;
    }

    static Object stat(Path file) {
      try {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        return List.of(
            attributes.lastModifiedTime(), attributes.size(), String.valueOf(attributes.fileKey()));
      } catch (IOException e) {
        return "missing";
      }
    }
  }
}
