// SPDX-License-Identifier: Apache-2.0
// A real Hive Metastore (Apache Hive 2.3.9, the metastore jars that ship in the pyspark
// wheel) on 127.0.0.1 with an embedded Derby database, for tests/peers/test_hms.py.
// Derby gets the metastore schema from DataNucleus (datanucleus.schema.autoCreateAll) but not
// the transaction tables that HMS locks live in (HIVE_LOCKS, NEXT_LOCK_ID, ...): Hive's own
// TxnDbUtil.prepDb creates those first, as Hive's and Iceberg's test metastores do.
// Run as a single-file source program (java -cp "<pyspark>/jars/*" HmsLauncher.java PORT DIR).
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStore;
import org.apache.hadoop.hive.metastore.txn.TxnDbUtil;

public class HmsLauncher {
  public static void main(String[] args) throws Throwable {
    String port = args[0];
    String dir = args[1];
    System.setProperty("hive.async.log.enabled", "false");
    System.setProperty("javax.jdo.option.ConnectionURL",
        "jdbc:derby:;databaseName=" + dir + "/metastore_db;create=true");
    System.setProperty("hive.metastore.schema.verification", "false");
    System.setProperty("datanucleus.schema.autoCreateAll", "true");
    System.setProperty("hive.metastore.warehouse.dir", "file:" + dir + "/warehouse");
    System.setProperty("hive.txn.timeout", System.getProperty("hms.txn.timeout", "300"));
    System.setProperty("derby.stream.error.file", dir + "/derby.log");
    TxnDbUtil.prepDb(new HiveConf());
    HiveMetaStore.main(new String[] {"-p", port});
  }
}
