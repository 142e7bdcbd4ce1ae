// SPDX-License-Identifier: Apache-2.0
// Iceberg Java's half of the Hive Metastore benchmark (bench/hms_vs_hivecatalog.sh): the same
// work as bench/hms_catalog.c through org.apache.iceberg.hive.HiveCatalog (Iceberg 1.11, the
// jars of ~/.cache/floe-peers, Spark's HiveCatalog) on the same metastore. JIT warmed by
// WARMUP rounds, then the median of RUNS. Prints BENCH hms_<op>_java <median ms> ms.
//   java -cp "<iceberg-spark-runtime>:<pyspark>/jars/*" HiveCatalogBench.java URI WAREHOUSE
import java.util.Arrays;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hive.HiveCatalog;
import org.apache.iceberg.types.Types;

public class HiveCatalogBench {
  static final int WARMUP = 20, RUNS = 100;

  static double medianMs(long[] ns) {
    long[] s = ns.clone();
    Arrays.sort(s);
    return s[s.length / 2] / 1e6;
  }

  public static void main(String[] args) throws Exception {
    HiveCatalog cat = new HiveCatalog();
    cat.setConf(new Configuration());
    cat.initialize("hive", Map.of("uri", args[0], "warehouse", args[1], "cache-enabled", "false"));
    Namespace ns = Namespace.of("jbench");
    cat.createNamespace(ns);
    TableIdentifier id = TableIdentifier.of(ns, "t");
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "s", Types.StringType.get()));
    Table t = cat.createTable(id, schema);
    long[] times = new long[RUNS];
    for (int i = 0; i < WARMUP + RUNS; i++) {
      long t0 = System.nanoTime();
      t.updateProperties().set("bench.k", String.valueOf(i)).commit();
      if (i >= WARMUP) times[i - WARMUP] = System.nanoTime() - t0;
    }
    System.out.printf("BENCH hms_commit_java %.2f ms%n", medianMs(times));
    for (int i = 0; i < WARMUP + RUNS; i++) {
      long t0 = System.nanoTime();
      cat.loadTable(id);
      if (i >= WARMUP) times[i - WARMUP] = System.nanoTime() - t0;
    }
    System.out.printf("BENCH hms_load_table_java %.2f ms%n", medianMs(times));
    cat.close();
  }
}
