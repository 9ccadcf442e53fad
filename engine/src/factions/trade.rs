//! Where a statement of the trading factions goes: each to the module of the faction whose
//! chapter states it (CHOAM 000 2.09, Richese 2.10, the Free Traders 2.13), the Second
//! Expansion's cards to `cards` (000 3.03).

use crate::dgn::{Event, TradeStmt};
use crate::replay::Replay;

impl Replay {
    pub(crate) fn trade_statement(&mut self, ev: &Event, s: &TradeStmt) {
        match s {
            TradeStmt::AllyStipend { .. }
            | TradeStmt::EarningsUp { .. }
            | TradeStmt::Inflation { .. }
            | TradeStmt::Earnings { .. }
            | TradeStmt::Sell { .. }
            | TradeStmt::Multipurpose { .. }
            | TradeStmt::Swap { .. }
            | TradeStmt::Lend { .. }
            | TradeStmt::Audit { .. }
            | TradeStmt::Buyoff { .. }
            | TradeStmt::Share { .. } => self.choam_statement(ev, s),
            TradeStmt::SetupNoField { .. }
            | TradeStmt::Declared { .. }
            | TradeStmt::CacheAuction { .. }
            | TradeStmt::BlackMarket { .. }
            | TradeStmt::Supply { .. }
            | TradeStmt::NoFieldShip { .. }
            | TradeStmt::NoFieldMove { .. }
            | TradeStmt::Reveal { .. }
            | TradeStmt::Give { .. } => self.richese_statement(ev, s),
            TradeStmt::FtPlace { .. }
            | TradeStmt::BlackMarketAuction { .. }
            | TradeStmt::WayIn { .. }
            | TradeStmt::WayOut { .. }
            | TradeStmt::Tunnels { .. }
            | TradeStmt::Scrap { .. } => self.free_traders_statement(ev, s),
            TradeStmt::Distrans { .. }
            | TradeStmt::Sapho { .. }
            | TradeStmt::Nullentropy { .. }
            | TradeStmt::Ornithopter { .. }
            | TradeStmt::PortableSnooper { .. }
            | TradeStmt::ResidualPoison { .. }
            | TradeStmt::Semuta { .. }
            | TradeStmt::Burn { .. }
            | TradeStmt::Axolotl { .. }
            | TradeStmt::SeededWater { .. } => self.second_expansion_statement(ev, s),
        }
    }
}
