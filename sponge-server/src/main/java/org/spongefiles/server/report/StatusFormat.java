package org.spongefiles.server.report;

import java.util.List;
import java.util.Locale;

/** The rack report as a table for people and as JSON for scripts. */
public final class StatusFormat {
  private StatusFormat() {}

  public static String text(RackStatus status) {
    StringBuilder out = new StringBuilder();
    out.append("Tracker leader: ")
        .append(
            status.leader != null
                ? status.leader
                : "NONE ("
                    + (status.leaderProblem == null ? "no tracker leads" : status.leaderProblem)
                    + ")")
        .append('\n');
    out.append("Servers: ").append(status.servers.size()).append("\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "%-24s %-16s %10s %10s %10s %10s %10s %10s %6s%n",
            "SERVER",
            "RACK",
            "POOL",
            "USED",
            "FREE",
            "RESERVED",
            "LOCAL",
            "REMOTE",
            "CONNS"));
    for (ServerStatus server : status.servers) {
      if (!server.reachable()) {
        out.append(
            String.format(
                Locale.ROOT,
                "%-24s %-16s UNREACHABLE: %s%n",
                server.address,
                server.rack,
                server.error));
        continue;
      }
      if (!server.detailed) {
        out.append(
            String.format(
                Locale.ROOT,
                "%-24s %-16s %10s %10s %10s %10s %10s %10s %6s  (no metrics port)%n",
                server.address,
                server.rack,
                bytes(server.poolBytes),
                bytes(server.usedBytes),
                bytes(server.freeBytes),
                "-",
                "-",
                "-",
                "-"));
        continue;
      }
      out.append(
          String.format(
              Locale.ROOT,
              "%-24s %-16s %10s %10s %10s %10s %10s %10s %6d%n",
              server.address,
              server.rack,
              bytes(server.poolBytes),
              bytes(server.usedBytes),
              bytes(server.freeBytes),
              bytes(server.reservedBytes()),
              bytes(server.localTaskBytes),
              bytes(server.remoteTaskBytes),
              server.connections));
    }
    List<ServerStatus.TaskHolding> top = status.topTasks();
    out.append("\nTasks holding the most memory:\n");
    if (top.isEmpty()) {
      out.append("  (none)\n");
    }
    for (ServerStatus.TaskHolding task : top) {
      out.append(
          String.format(
              Locale.ROOT, "  %-48s %10s  on %s%n", task.task, bytes(task.bytes), task.server));
    }
    return out.toString();
  }

  public static String json(RackStatus status) {
    StringBuilder out = new StringBuilder();
    out.append("{\"leader\":").append(string(status.leader));
    if (status.leaderProblem != null) {
      out.append(",\"leaderProblem\":").append(string(status.leaderProblem));
    }
    out.append(",\"exitCode\":").append(status.exitCode());
    out.append(",\"servers\":[");
    for (int i = 0; i < status.servers.size(); i++) {
      ServerStatus server = status.servers.get(i);
      out.append(i == 0 ? "" : ",");
      out.append("{\"address\":").append(string(server.address));
      out.append(",\"rack\":").append(string(server.rack));
      out.append(",\"reachable\":").append(server.reachable());
      if (server.reachable()) {
        out.append(",\"poolBytes\":").append(server.poolBytes);
        out.append(",\"usedBytes\":").append(server.usedBytes);
        out.append(",\"freeBytes\":").append(server.freeBytes);
        out.append(",\"metrics\":").append(server.detailed);
      }
      if (server.detailed) {
        out.append(",\"reservedBytes\":").append(server.reservedBytes());
        out.append(",\"localTaskBytes\":").append(server.localTaskBytes);
        out.append(",\"remoteTaskBytes\":").append(server.remoteTaskBytes);
        out.append(",\"connections\":").append(server.connections);
      }
      if (!server.reachable()) {
        out.append(",\"error\":").append(string(server.error));
      }
      out.append('}');
    }
    out.append("],\"topTasks\":[");
    List<ServerStatus.TaskHolding> top = status.topTasks();
    for (int i = 0; i < top.size(); i++) {
      ServerStatus.TaskHolding task = top.get(i);
      out.append(i == 0 ? "" : ",");
      out.append("{\"task\":").append(string(task.task));
      out.append(",\"server\":").append(string(task.server));
      out.append(",\"bytes\":").append(task.bytes).append('}');
    }
    return out.append("]}\n").toString();
  }

  static String bytes(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double value = bytes;
    int unit = -1;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
  }

  static String string(String value) {
    if (value == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder("\"");
    for (char c : value.toCharArray()) {
      switch (c) {
        case '"':
          out.append("\\\"");
          break;
        case '\\':
          out.append("\\\\");
          break;
        case '\n':
          out.append("\\n");
          break;
        case '\r':
          out.append("\\r");
          break;
        case '\t':
          out.append("\\t");
          break;
        default:
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
      }
    }
    return out.append('"').toString();
  }
}
