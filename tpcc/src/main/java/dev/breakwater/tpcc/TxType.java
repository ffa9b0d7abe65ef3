package dev.breakwater.tpcc;

/**
 * The five TPC-C transactions with their minimum keying times and mean think times (clause 5.2.5.7),
 * used only when keying/think times are switched on.
 */
public enum TxType {
    NEW_ORDER("NewOrder", 18, 12),
    PAYMENT("Payment", 3, 12),
    ORDER_STATUS("OrderStatus", 2, 10),
    DELIVERY("Delivery", 2, 5),
    STOCK_LEVEL("StockLevel", 2, 5);

    private final String label;
    private final int keyingSeconds;
    private final int meanThinkSeconds;

    TxType(String label, int keyingSeconds, int meanThinkSeconds) {
        this.label = label;
        this.keyingSeconds = keyingSeconds;
        this.meanThinkSeconds = meanThinkSeconds;
    }

    public String label() {
        return label;
    }

    public int keyingSeconds() {
        return keyingSeconds;
    }

    public int meanThinkSeconds() {
        return meanThinkSeconds;
    }
}
