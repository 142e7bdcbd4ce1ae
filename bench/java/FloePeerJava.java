// SPDX-License-Identifier: Apache-2.0
// floe-peer-java: the Iceberg Java 1.11 core-API side of bench/native_peers.sh (issue #28).
// Same operations and protocol as bench/go and bench/rust, on the files floe's benches
// generate: each operation runs WARMUP times to warm the JIT, then RUNS times, all in one
// JVM, timed in-process (JVM start-up and class loading are outside every figure), and
// prints one line
//
//   PEER <op> <median wall ms> <median process CPU ms> <count>
//
// Process CPU time is the sum over the JVM's threads (application, the planning worker
// pool, JIT and GC) of /proc/self/task/*/schedstat, in nanoseconds (the JMX process CPU
// time has 10 ms resolution on Linux). Usage (bench/native_peers.sh compiles and runs it):
//
//   java -cp DIR:CORE_JARS/* org.apache.iceberg.FloePeerJava <op> RUNS <args...>
//     manifest RUNS FILE            ManifestFiles.read, every entry (live and deleted)
//     metadata RUNS FILE            TableMetadataParser.fromJson of the file held in memory
//     plan RUNS METADATA [CAT]      StaticTableOperations table, newScan().planFiles()
//                                   (filter cat = CAT)
//     files RUNS METADATA           the files metadata table, every column of every row
//     commit RUNS METADATA DIR      set one table property through a JdbcCatalog on SQLite
//     expire RUNS METADATA DIR KEEP [RESET]
//                                   expireSnapshots().retainLast(KEEP).cleanExpiredFiles(true)
//                                   with the default strategy, deleteWith and executors; RESET,
//                                   a program, runs untimed before each run (it restores the
//                                   table's files)
//
// In package org.apache.iceberg for ManifestReader.entries() (package-private), which
// yields every entry as floe's reader does; the public iterator skips deleted ones.
package org.apache.iceberg;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.function.IntToLongFunction;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.jdbc.JdbcCatalog;

public class FloePeerJava {
  /* Warm-up: at least WARMUP runs, more while less than WARMUP_MS have passed (at most 20). */
  static final int WARMUP = Integer.getInteger("floe.peer.warmup", 3);
  static final long WARMUP_MS = Long.getLong("floe.peer.warmup_ms", 2000);

  /** The local file system (iceberg-core has no FileIO for it without Hadoop). */
  public static class LocalIO implements FileIO {
    static String strip(String p) {
      return p.startsWith("file:") ? p.replaceFirst("^file:(//)?", "") : p;
    }

    @Override
    public InputFile newInputFile(String p) {
      return Files.localInput(strip(p));
    }

    @Override
    public OutputFile newOutputFile(String p) {
      return Files.localOutput(strip(p));
    }

    @Override
    public void deleteFile(String p) {
      new File(strip(p)).delete();
    }
  }

  static void die(String msg, Throwable t) {
    System.err.println("floe-peer-java: " + msg + (t == null ? "" : ": " + t));
    System.exit(1);
  }

  /** CPU time of every thread of this process, in ns. */
  static long cpuNs() {
    long sum = 0;
    File[] tasks = new File("/proc/self/task").listFiles();
    if (tasks == null) die("no /proc/self/task", null);
    for (File t : tasks) {
      try {
        String s = java.nio.file.Files.readString(Path.of(t.getPath(), "schedstat"));
        sum += Long.parseLong(s.substring(0, s.indexOf(' ')));
      } catch (IOException | RuntimeException e) {
        // a thread that ended between the listing and the read
      }
    }
    return sum;
  }

  static double median(double[] v) {
    Arrays.sort(v);
    return v[v.length / 2];
  }

  /** setup (untimed, may be null) then fn, to warm up, then runs times; fn returns its count. */
  static void measure(String op, int runs, IntConsumer setup, IntToLongFunction fn) {
    double[] wall = new double[runs], cpu = new double[runs];
    long count = -1, start = System.nanoTime();
    int warm = 0, i = 0;
    for (; ; i++) {
      boolean warming =
          i < WARMUP || (i < 20 && (System.nanoTime() - start) / 1000000 < WARMUP_MS);
      if (warming) warm = i + 1;
      else if (i - warm >= runs) break;
      if (setup != null) setup.accept(i);
      long t0 = System.nanoTime(), c0 = cpuNs();
      long n = fn.applyAsLong(i);
      long w = System.nanoTime() - t0, c = cpuNs() - c0;
      if (i > 0 && n != count) die(op + ": count " + count + " then " + n, null);
      count = n;
      if (!warming) {
        wall[i - warm] = w / 1e6;
        cpu[i - warm] = Math.max(0, c) / 1e6;
      }
    }
    System.err.printf("floe-peer-java: %s: %d warm-up runs%n", op, warm);
    System.out.printf("PEER %s %.3f %.3f %d%n", op, median(wall), median(cpu), count);
  }

  /** A ManifestFile for a manifest read without its manifest list (spec id from the file). */
  static ManifestFile manifestFile(String path, long len) {
    InvocationHandler h =
        (proxy, m, a) -> {
          switch (m.getName()) {
            case "path":
            case "toString":
              return path;
            case "length":
              return len;
            case "partitionSpecId":
              return 0;
            case "content":
              return ManifestContent.DATA;
            case "sequenceNumber":
            case "minSequenceNumber":
              return 0L;
            case "snapshotId": // inherited by entries without one (as bench/go's)
              return 1L;
            case "hashCode":
              return path.hashCode();
            case "equals":
              return proxy == a[0];
            default:
              return m.isDefault() ? InvocationHandler.invokeDefault(proxy, m, a) : null;
          }
        };
    return (ManifestFile)
        Proxy.newProxyInstance(
            ManifestFile.class.getClassLoader(), new Class<?>[] {ManifestFile.class}, h);
  }

  static Table staticTable(String meta, FileIO io) {
    return new BaseTable(new StaticTableOperations(meta, io), "bench.t");
  }

  /** Read every field, nested structs included. */
  static long touch(StructLike row) {
    long n = 0;
    for (int i = 0; i < row.size(); i++) {
      Object v = row.get(i, Object.class);
      if (v instanceof StructLike) n += touch((StructLike) v);
      else if (v != null) n++;
    }
    return n;
  }

  static JdbcCatalog catalog(String dir) {
    JdbcCatalog cat = new JdbcCatalog(props -> new LocalIO(), null, true);
    Map<String, String> props = new HashMap<>();
    props.put(CatalogProperties.URI, "jdbc:sqlite:" + dir + "/java-catalog.db");
    props.put(CatalogProperties.WAREHOUSE_LOCATION, dir);
    cat.initialize("bench", props);
    Namespace ns = Namespace.of("b");
    if (!cat.namespaceExists(ns)) cat.createNamespace(ns);
    return cat;
  }

  /** Run the program `prog` (untimed set-up), failing the bench if it fails. */
  static void reset(String prog) {
    try {
      Process p = new ProcessBuilder(prog).inheritIO().start();
      if (p.waitFor() != 0) die("reset " + prog + " failed", null);
    } catch (IOException | InterruptedException e) {
      die("reset " + prog, e);
    }
  }

  /** Snapshots of the table's state after a commit (the refresh Java does before its next use). */
  static long snapshots(Table t) {
    return ((HasTableOperations) t).operations().current().snapshots().size();
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 3) die("usage: FloePeerJava <op> <runs> <args...>", null);
    String op = args[0];
    int runs = Integer.parseInt(args[1]);
    String[] arg = Arrays.copyOfRange(args, 2, args.length);
    FileIO io = new LocalIO();
    switch (op) {
      case "manifest":
        {
          File f = new File(arg[0]);
          ManifestFile mf = manifestFile(f.getPath(), f.length());
          measure(
              op,
              runs,
              null,
              i -> {
                long n = 0, sum = 0;
                try (ManifestReader<DataFile> r = ManifestFiles.read(mf, io);
                    CloseableIterable<ManifestEntry<DataFile>> es = r.entries()) {
                  for (ManifestEntry<DataFile> e : es) {
                    DataFile d = e.file();
                    sum += d.recordCount() + (d.lowerBounds() == null ? 0 : d.lowerBounds().size());
                    n++;
                  }
                } catch (IOException e) {
                  die("manifest", e);
                }
                return sum >= 0 ? n : -1;
              });
          break;
        }
      case "metadata":
        {
          String json =
              new String(java.nio.file.Files.readAllBytes(Path.of(arg[0])), StandardCharsets.UTF_8);
          measure(op, runs, null, i -> TableMetadataParser.fromJson(json).snapshots().size());
          break;
        }
      case "plan":
        measure(
            op,
            runs,
            null,
            i -> {
              TableScan scan = staticTable(arg[0], io).newScan();
              if (arg.length > 1) scan = scan.filter(Expressions.equal("cat", arg[1]));
              long n = 0;
              try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
                for (FileScanTask t : tasks) n++;
              } catch (IOException e) {
                die("plan", e);
              }
              return n;
            });
        break;
      case "files":
        measure(
            op,
            runs,
            null,
            i -> {
              Table files =
                  MetadataTableUtils.createMetadataTableInstance(
                      staticTable(arg[0], io), MetadataTableType.FILES);
              long rows = 0, cells = 0;
              try (CloseableIterable<FileScanTask> tasks = files.newScan().planFiles()) {
                for (FileScanTask t : tasks) {
                  try (CloseableIterable<StructLike> rs = t.asDataTask().rows()) {
                    for (StructLike row : rs) {
                      cells += touch(row);
                      rows++;
                    }
                  }
                }
              } catch (IOException e) {
                die("files", e);
              }
              return cells >= 0 ? rows : -1;
            });
        break;
      case "commit":
        {
          JdbcCatalog cat = catalog(arg[1]);
          Table t = cat.registerTable(TableIdentifier.of("b", "commit"), arg[0]);
          measure(
              op,
              runs,
              null,
              i -> {
                t.updateProperties().set("bench.n", Integer.toString(i)).commit();
                return snapshots(t);
              });
          break;
        }
      case "expire":
        {
          int keep = Integer.parseInt(arg[2]);
          JdbcCatalog cat = catalog(arg[1]);
          Table[] t = new Table[1];
          measure(
              op,
              runs,
              i -> {
                if (arg.length > 3) reset(arg[3]);
                t[0] = cat.registerTable(TableIdentifier.of("b", "expire" + i), arg[0]);
                snapshots(t[0]); // the load after register, untimed
              },
              i -> {
                t[0].expireSnapshots()
                    .retainLast(keep)
                    .expireOlderThan(Long.MAX_VALUE / 2)
                    .cleanExpiredFiles(true)
                    .commit();
                return snapshots(t[0]);
              });
          break;
        }
      default:
        die("unknown operation " + op, null);
    }
    System.exit(0);
  }
}
