package io.mdhub.common.dictionary;

/**
 * Field ids of MDHub's bundled field dictionary, for code that encodes or picks fields without a dictionary lookup.
 */
public final class FieldIds
{
    /** Permission code (UINT). */
    public static final int PROD_PERM = 1;
    /** Display template (UINT). */
    public static final int RDNDISPLAY = 2;
    /** Display name (RMTES string). */
    public static final int DSPLY_NAME = 3;
    /** Exchange id (ENUM). */
    public static final int RDN_EXCHID = 4;
    /** Time of update (TIME). */
    public static final int TIMACT = 5;
    /** Last trade price (REAL), ripples to TRDPRC_2. */
    public static final int TRDPRC_1 = 6;
    /** Previous last trade price (REAL). */
    public static final int TRDPRC_2 = 7;
    /** Last trade price two back (REAL). */
    public static final int TRDPRC_3 = 8;
    /** Last trade price three back (REAL). */
    public static final int TRDPRC_4 = 9;
    /** Last trade price four back (REAL). */
    public static final int TRDPRC_5 = 10;
    /** Net change (REAL). */
    public static final int NETCHNG_1 = 11;
    /** Day high (REAL). */
    public static final int HIGH_1 = 12;
    /** Day low (REAL). */
    public static final int LOW_1 = 13;
    /** Tick direction (ENUM). */
    public static final int PRCTCK_1 = 14;
    /** Currency (ENUM). */
    public static final int CURRENCY = 15;
    /** Trade date (DATE). */
    public static final int TRADE_DATE = 16;
    /** Active date (DATE). */
    public static final int ACTIV_DATE = 17;
    /** Trade time (TIME). */
    public static final int TRDTIM_1 = 18;
    /** Open price (REAL). */
    public static final int OPEN_PRC = 19;
    /** Previous close (REAL). */
    public static final int HST_CLOSE = 21;
    /** Best bid (REAL), ripples to BID_1. */
    public static final int BID = 22;
    /** Previous bid (REAL). */
    public static final int BID_1 = 23;
    /** Bid two back (REAL). */
    public static final int BID_2 = 24;
    /** Best ask (REAL), ripples to ASK_1. */
    public static final int ASK = 25;
    /** Previous ask (REAL). */
    public static final int ASK_1 = 26;
    /** Ask two back (REAL). */
    public static final int ASK_2 = 27;
    /** Bid size (REAL on the wire). */
    public static final int BIDSIZE = 30;
    /** Ask size (REAL on the wire). */
    public static final int ASKSIZE = 31;
    /** Accumulated volume (REAL on the wire). */
    public static final int ACVOL_1 = 32;
    /** Percent change (REAL). */
    public static final int PCTCHNG = 56;
    /** Number of trades (REAL on the wire). */
    public static final int NUM_MOVES = 77;
    /** Date of the previous close (DATE). */
    public static final int HSTCLSDATE = 79;
    /** Turnover (REAL). */
    public static final int TURNOVER = 100;
    /** Last trade volume (REAL on the wire). */
    public static final int TRDVOL_1 = 178;
    /** Bid time (TIME). */
    public static final int BID_TIME = 266;
    /** Ask time (TIME). */
    public static final int ASK_TIME = 267;
    /** Quote time (TIME). */
    public static final int QUOTIM = 1025;
    /** MDHub local field: per-item update counter stamped by the source tool (UINT). */
    public static final int MDH_UPDSEQ = -4001;
    /** MDHub local field: source System.nanoTime() for embedded-timestamp latency (INT). */
    public static final int MDH_ORGTIM = -4002;

    private FieldIds()
    {
    }
}
