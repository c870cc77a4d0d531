package org.spongefiles.core.tls;

import java.util.Objects;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.config.ConfigValues;

/**
 * TLS of one process, from the {@code sponge.tls.*} keys: engines for the ports a daemon serves and
 * for the connections a task, the tracker or {@code bin/sponge} opens. Clients check the server's
 * certificate against the truststore and its host name (as for HTTPS); servers ask no certificate
 * of clients, which prove the cluster secret inside TLS instead.
 *
 * <p>Key rotation: before each new engine the store files are looked at (one {@code stat} each);
 * when one changed the stores are loaded again, and a store that cannot be loaded is reported once
 * and the previous one kept. Connections already open keep the keys they started with.
 */
public final class TlsContext {
  private static final Logger LOG = LoggerFactory.getLogger(TlsContext.class);

  private final TlsStores stores;
  private TlsStores.Loaded current; // guarded by this

  private TlsContext(TlsStores stores) {
    this.stores = stores;
    this.current = stores.load();
  }

  /**
   * The TLS of a daemon (a keystore to serve with and a truststore to connect with), or null when
   * {@code sponge.tls.enabled} is false.
   *
   * @throws ConfigException naming the key and value of a store or password that cannot be used
   */
  public static TlsContext forDaemon(ConfigValues conf) {
    return conf.get(TlsOptions.ENABLED) ? new TlsContext(TlsStores.of(conf, true)) : null;
  }

  /**
   * The TLS of a client (a truststore; a keystore, when set, is not needed and not read), or null
   * when {@code sponge.tls.enabled} is false.
   *
   * @throws ConfigException naming the key and value of a store or password that cannot be used
   */
  public static TlsContext forClient(ConfigValues conf) {
    return conf.get(TlsOptions.ENABLED) ? new TlsContext(TlsStores.of(conf, false)) : null;
  }

  /** An engine for one accepted connection. */
  public SSLEngine serverEngine() {
    SSLEngine engine = context().createSSLEngine();
    engine.setUseClientMode(false);
    engine.setNeedClientAuth(false);
    return engine;
  }

  /** An engine for one connection to {@code host}:{@code port}, checking the server's name. */
  public SSLEngine clientEngine(String host, int port) {
    SSLEngine engine = context().createSSLEngine(Objects.requireNonNull(host, "host"), port);
    engine.setUseClientMode(true);
    SSLParameters parameters = engine.getSSLParameters();
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    engine.setSSLParameters(parameters);
    return engine;
  }

  /** The context of the stores as they are now on disk (or the last ones that loaded). */
  synchronized SSLContext context() {
    if (stores.changedSince(current)) {
      try {
        current = stores.load();
        LOG.info("Loaded the changed TLS stores for new connections: {}", current);
      } catch (ConfigException e) {
        LOG.warn("Keeping the previous TLS stores for new connections: {}", e.getMessage());
        current = current.retriedAt(stores.stamp());
      }
    }
    return current.context;
  }

  @Override
  public String toString() {
    return "TLS(" + stores + ")";
  }
}
