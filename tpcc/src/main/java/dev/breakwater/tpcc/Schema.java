package dev.breakwater.tpcc;

import static dev.breakwater.common.key.FieldType.INT32;
import static dev.breakwater.common.key.FieldType.INT64;
import static dev.breakwater.common.key.FieldType.STRING;

import dev.breakwater.txn.DatasetSpec;
import java.util.List;

/**
 * The TPC-C schema (specification clause 1.3) as Breakwater datasets, plus one small metadata
 * dataset of the harness.
 *
 * <p>Representation choices, which every transaction and check relies on:
 * <ol>
 *   <li>Money is a {@code long} number of cents (W_YTD, C_BALANCE, OL_AMOUNT, ...), so sums are exact.
 *   <li>Rates (W_TAX, D_TAX, C_DISCOUNT) are {@code int} units of 1/10,000 (0.1234 is 1234).
 *   <li>Dates are {@code long} milliseconds since the epoch; "null" dates (O_CARRIER_ID, OL_DELIVERY_D
 *       of undelivered orders) are nullable fields.
 *   <li>Key fields come first in each record, in primary-key order; the constants below are field
 *       positions in the tuples.
 *   <li>HISTORY has no primary key in the specification; here it is (H_W_ID, H_D_ID, H_UID) with a
 *       random 64-bit H_UID, so inserts from any terminal never collide (in practice).
 *   <li>Secondary indexes: CUSTOMER {@code by_last} (C_W_ID, C_D_ID, C_LAST, C_FIRST) for the
 *       by-name selections of Payment and Order-Status; ORDER {@code by_customer} (O_W_ID, O_D_ID,
 *       O_C_ID, O_ID) for Order-Status's "last order of a customer".
 * </ol>
 *
 * <p>Locking consequences (the engine locks a scan's key prefix up to two fields deep): scans of
 * NEW_ORDER by (w, d), ORDER_LINE by (w, d, o) and the two indexes by (w, d, ...) all lock one
 * district's node, never a whole warehouse or table.
 *
 * <p>Thread safety: constants only.
 */
public final class Schema {

    public static final String WAREHOUSE = "warehouse";
    public static final String DISTRICT = "district";
    public static final String CUSTOMER = "customer";
    public static final String HISTORY = "history";
    public static final String NEW_ORDER = "new_order";
    public static final String ORDER = "orders";
    public static final String ORDER_LINE = "order_line";
    public static final String ITEM = "item";
    public static final String STOCK = "stock";
    /** Harness metadata (not a TPC-C table): name -> value, e.g. the load's warehouse count and C-Load. */
    public static final String META = "tpcc_meta";

    public static final String CUSTOMER_BY_LAST = "by_last";
    public static final String ORDER_BY_CUSTOMER = "by_customer";

    // WAREHOUSE field positions
    public static final int W_ID = 0, W_NAME = 1, W_STREET_1 = 2, W_STREET_2 = 3, W_CITY = 4, W_STATE = 5, W_ZIP = 6,
            W_TAX = 7, W_YTD = 8;
    // DISTRICT
    public static final int D_W_ID = 0, D_ID = 1, D_NAME = 2, D_STREET_1 = 3, D_STREET_2 = 4, D_CITY = 5, D_STATE = 6,
            D_ZIP = 7, D_TAX = 8, D_YTD = 9, D_NEXT_O_ID = 10;
    // CUSTOMER
    public static final int C_W_ID = 0, C_D_ID = 1, C_ID = 2, C_FIRST = 3, C_MIDDLE = 4, C_LAST = 5, C_STREET_1 = 6,
            C_STREET_2 = 7, C_CITY = 8, C_STATE = 9, C_ZIP = 10, C_PHONE = 11, C_SINCE = 12, C_CREDIT = 13,
            C_CREDIT_LIM = 14, C_DISCOUNT = 15, C_BALANCE = 16, C_YTD_PAYMENT = 17, C_PAYMENT_CNT = 18,
            C_DELIVERY_CNT = 19, C_DATA = 20;
    // HISTORY
    public static final int H_W_ID = 0, H_D_ID = 1, H_UID = 2, H_C_W_ID = 3, H_C_D_ID = 4, H_C_ID = 5, H_DATE = 6,
            H_AMOUNT = 7, H_DATA = 8;
    // NEW_ORDER
    public static final int NO_W_ID = 0, NO_D_ID = 1, NO_O_ID = 2;
    // ORDER
    public static final int O_W_ID = 0, O_D_ID = 1, O_ID = 2, O_C_ID = 3, O_ENTRY_D = 4, O_CARRIER_ID = 5,
            O_OL_CNT = 6, O_ALL_LOCAL = 7;
    // ORDER_LINE
    public static final int OL_W_ID = 0, OL_D_ID = 1, OL_O_ID = 2, OL_NUMBER = 3, OL_I_ID = 4, OL_SUPPLY_W_ID = 5,
            OL_DELIVERY_D = 6, OL_QUANTITY = 7, OL_AMOUNT = 8, OL_DIST_INFO = 9;
    // ITEM
    public static final int I_ID = 0, I_IM_ID = 1, I_NAME = 2, I_PRICE = 3, I_DATA = 4;
    // STOCK: S_DIST_01 .. S_DIST_10 are at S_DIST_01 + (district - 1)
    public static final int S_W_ID = 0, S_I_ID = 1, S_QUANTITY = 2, S_DIST_01 = 3, S_YTD = 13, S_ORDER_CNT = 14,
            S_REMOTE_CNT = 15, S_DATA = 16;
    // META
    public static final int META_NAME = 0, META_VALUE = 1;

    /** Districts per warehouse, customers per district, items, and initial orders per district (clause 1.2/4.3). */
    public static final int DISTRICTS = 10, CUSTOMERS = 3000, ITEMS = 100_000, INITIAL_ORDERS = 3000;
    /** The first initial order that is still undelivered (has a NEW_ORDER row). */
    public static final int FIRST_UNDELIVERED = 2101;

    private Schema() {
    }

    public static DatasetSpec warehouse() {
        return DatasetSpec.builder(WAREHOUSE)
                .field("w_id", INT32).field("w_name", STRING).field("w_street_1", STRING).field("w_street_2", STRING)
                .field("w_city", STRING).field("w_state", STRING).field("w_zip", STRING)
                .field("w_tax", INT32).field("w_ytd", INT64)
                .primaryKey("w_id").build();
    }

    public static DatasetSpec district() {
        return DatasetSpec.builder(DISTRICT)
                .field("d_w_id", INT32).field("d_id", INT32).field("d_name", STRING).field("d_street_1", STRING)
                .field("d_street_2", STRING).field("d_city", STRING).field("d_state", STRING).field("d_zip", STRING)
                .field("d_tax", INT32).field("d_ytd", INT64).field("d_next_o_id", INT32)
                .primaryKey("d_w_id", "d_id").build();
    }

    public static DatasetSpec customer() {
        return DatasetSpec.builder(CUSTOMER)
                .field("c_w_id", INT32).field("c_d_id", INT32).field("c_id", INT32)
                .field("c_first", STRING).field("c_middle", STRING).field("c_last", STRING)
                .field("c_street_1", STRING).field("c_street_2", STRING).field("c_city", STRING)
                .field("c_state", STRING).field("c_zip", STRING).field("c_phone", STRING)
                .field("c_since", INT64).field("c_credit", STRING).field("c_credit_lim", INT64)
                .field("c_discount", INT32).field("c_balance", INT64).field("c_ytd_payment", INT64)
                .field("c_payment_cnt", INT32).field("c_delivery_cnt", INT32).field("c_data", STRING)
                .primaryKey("c_w_id", "c_d_id", "c_id")
                .secondaryIndex(CUSTOMER_BY_LAST, "c_w_id", "c_d_id", "c_last", "c_first")
                .build();
    }

    public static DatasetSpec history() {
        return DatasetSpec.builder(HISTORY)
                .field("h_w_id", INT32).field("h_d_id", INT32).field("h_uid", INT64)
                .field("h_c_w_id", INT32).field("h_c_d_id", INT32).field("h_c_id", INT32)
                .field("h_date", INT64).field("h_amount", INT64).field("h_data", STRING)
                .primaryKey("h_w_id", "h_d_id", "h_uid").build();
    }

    public static DatasetSpec newOrder() {
        return DatasetSpec.builder(NEW_ORDER)
                .field("no_w_id", INT32).field("no_d_id", INT32).field("no_o_id", INT32)
                .primaryKey("no_w_id", "no_d_id", "no_o_id").build();
    }

    public static DatasetSpec order() {
        return DatasetSpec.builder(ORDER)
                .field("o_w_id", INT32).field("o_d_id", INT32).field("o_id", INT32).field("o_c_id", INT32)
                .field("o_entry_d", INT64).nullableField("o_carrier_id", INT32)
                .field("o_ol_cnt", INT32).field("o_all_local", INT32)
                .primaryKey("o_w_id", "o_d_id", "o_id")
                .secondaryIndex(ORDER_BY_CUSTOMER, "o_w_id", "o_d_id", "o_c_id", "o_id")
                .build();
    }

    public static DatasetSpec orderLine() {
        return DatasetSpec.builder(ORDER_LINE)
                .field("ol_w_id", INT32).field("ol_d_id", INT32).field("ol_o_id", INT32).field("ol_number", INT32)
                .field("ol_i_id", INT32).field("ol_supply_w_id", INT32).nullableField("ol_delivery_d", INT64)
                .field("ol_quantity", INT32).field("ol_amount", INT64).field("ol_dist_info", STRING)
                .primaryKey("ol_w_id", "ol_d_id", "ol_o_id", "ol_number").build();
    }

    public static DatasetSpec item() {
        return DatasetSpec.builder(ITEM)
                .field("i_id", INT32).field("i_im_id", INT32).field("i_name", STRING).field("i_price", INT64)
                .field("i_data", STRING)
                .primaryKey("i_id").build();
    }

    public static DatasetSpec stock() {
        DatasetSpec.Builder b = DatasetSpec.builder(STOCK)
                .field("s_w_id", INT32).field("s_i_id", INT32).field("s_quantity", INT32);
        for (int d = 1; d <= DISTRICTS; d++) {
            b.field(String.format("s_dist_%02d", d), STRING);
        }
        return b.field("s_ytd", INT64).field("s_order_cnt", INT32).field("s_remote_cnt", INT32).field("s_data", STRING)
                .primaryKey("s_w_id", "s_i_id").build();
    }

    public static DatasetSpec meta() {
        return DatasetSpec.builder(META).field("name", STRING).field("value", INT64).primaryKey("name").build();
    }

    /** Every dataset of the harness, TPC-C tables first. */
    public static List<DatasetSpec> all() {
        return List.of(warehouse(), district(), customer(), history(), newOrder(), order(), orderLine(), item(), stock(), meta());
    }
}
