// Row ids are 32-bit integers on PostgreSQL (SQLite's are 64-bit): an id beyond this range cannot name a row on
// either database, and PostgreSQL would refuse it as a parameter with a 500. Input schemas cap ids here, so such
// a request is a 422 on both.
export const DB_ID_MAX = 2_147_483_647;
export const DB_ID_MIN = -2_147_483_648;
