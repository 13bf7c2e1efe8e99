// The Buy and Pay views: one lazy chunk (Pay's buy step is the Buy panel's flow).
export { BuyView } from './BuyView'
export { PayView } from './PayView'
