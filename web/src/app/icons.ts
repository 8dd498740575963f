// Menu icons named by the route table, imported one by one so only these are bundled.
import type { ComponentType } from 'react';
import AimOutlined from '@ant-design/icons/es/icons/AimOutlined';
import AlertOutlined from '@ant-design/icons/es/icons/AlertOutlined';
import ApiOutlined from '@ant-design/icons/es/icons/ApiOutlined';
import AppstoreOutlined from '@ant-design/icons/es/icons/AppstoreOutlined';
import BankOutlined from '@ant-design/icons/es/icons/BankOutlined';
import BarChartOutlined from '@ant-design/icons/es/icons/BarChartOutlined';
import BellOutlined from '@ant-design/icons/es/icons/BellOutlined';
import BorderOuterOutlined from '@ant-design/icons/es/icons/BorderOuterOutlined';
import BorderOutlined from '@ant-design/icons/es/icons/BorderOutlined';
import BuildOutlined from '@ant-design/icons/es/icons/BuildOutlined';
import CalendarOutlined from '@ant-design/icons/es/icons/CalendarOutlined';
import CloudUploadOutlined from '@ant-design/icons/es/icons/CloudUploadOutlined';
import CodeOutlined from '@ant-design/icons/es/icons/CodeOutlined';
import ContainerOutlined from '@ant-design/icons/es/icons/ContainerOutlined';
import ControlOutlined from '@ant-design/icons/es/icons/ControlOutlined';
import DashboardOutlined from '@ant-design/icons/es/icons/DashboardOutlined';
import DatabaseOutlined from '@ant-design/icons/es/icons/DatabaseOutlined';
import EnvironmentOutlined from '@ant-design/icons/es/icons/EnvironmentOutlined';
import GlobalOutlined from '@ant-design/icons/es/icons/GlobalOutlined';
import HeartOutlined from '@ant-design/icons/es/icons/HeartOutlined';
import LinkOutlined from '@ant-design/icons/es/icons/LinkOutlined';
import MessageOutlined from '@ant-design/icons/es/icons/MessageOutlined';
import MobileOutlined from '@ant-design/icons/es/icons/MobileOutlined';
import PictureOutlined from '@ant-design/icons/es/icons/PictureOutlined';
import ProfileOutlined from '@ant-design/icons/es/icons/ProfileOutlined';
import RadarChartOutlined from '@ant-design/icons/es/icons/RadarChartOutlined';
import ExperimentOutlined from '@ant-design/icons/es/icons/ExperimentOutlined';
import SendOutlined from '@ant-design/icons/es/icons/SendOutlined';
import RiseOutlined from '@ant-design/icons/es/icons/RiseOutlined';
import SettingOutlined from '@ant-design/icons/es/icons/SettingOutlined';
import InboxOutlined from '@ant-design/icons/es/icons/InboxOutlined';
import SwapOutlined from '@ant-design/icons/es/icons/SwapOutlined';
import ShopOutlined from '@ant-design/icons/es/icons/ShopOutlined';
import ShoppingCartOutlined from '@ant-design/icons/es/icons/ShoppingCartOutlined';
import TagsOutlined from '@ant-design/icons/es/icons/TagsOutlined';
import TeamOutlined from '@ant-design/icons/es/icons/TeamOutlined';
import ToolOutlined from '@ant-design/icons/es/icons/ToolOutlined';
import UnorderedListOutlined from '@ant-design/icons/es/icons/UnorderedListOutlined';
import UserOutlined from '@ant-design/icons/es/icons/UserOutlined';
import WifiOutlined from '@ant-design/icons/es/icons/WifiOutlined';

export const ROUTE_ICONS: Record<string, ComponentType> = {
  AimOutlined,
  AlertOutlined,
  ApiOutlined,
  AppstoreOutlined,
  BankOutlined,
  BarChartOutlined,
  BellOutlined,
  BorderOuterOutlined,
  BorderOutlined,
  BuildOutlined,
  CloudUploadOutlined,
  CodeOutlined,
  ContainerOutlined,
  ControlOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  EnvironmentOutlined,
  GlobalOutlined,
  HeartOutlined,
  LinkOutlined,
  MessageOutlined,
  MobileOutlined,
  PictureOutlined,
  ProfileOutlined,
  RadarChartOutlined,
  ExperimentOutlined,
  SendOutlined,
  RiseOutlined,
  SettingOutlined,
  ShopOutlined,
  CalendarOutlined,
  InboxOutlined,
  SwapOutlined,
  ShoppingCartOutlined,
  TagsOutlined,
  TeamOutlined,
  ToolOutlined,
  UnorderedListOutlined,
  UserOutlined,
  WifiOutlined,
};
