import { flatmcp } from './index'

export default flatmcp.rolldown
